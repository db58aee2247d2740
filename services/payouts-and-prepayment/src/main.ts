// First: tracing (when configured) instruments http, gRPC and pg as they are loaded.
import '@platform/kit/dist/tracing';
import { runService } from '@platform/kit';
import { payoutsAndPrepaymentService } from './service';

runService(payoutsAndPrepaymentService);
