import { runService } from '@platform/kit';
import { webhooksService } from './service';

runService(webhooksService);
