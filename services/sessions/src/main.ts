import { runService } from '@platform/kit';
import { sessionsService } from './service';

runService(sessionsService);
