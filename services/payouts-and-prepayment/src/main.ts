import { runService } from '@platform/kit';
import { payoutsAndPrepaymentService } from './service';

runService(payoutsAndPrepaymentService);
