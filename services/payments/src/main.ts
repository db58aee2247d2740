import { runService } from '@platform/kit';
import { paymentsService } from './service';

runService(paymentsService);
