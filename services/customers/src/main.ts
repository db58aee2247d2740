import { runService } from '@platform/kit';
import { customersService } from './service';

runService(customersService);
