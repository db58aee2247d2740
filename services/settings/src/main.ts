import { runService } from '@platform/kit';
import { settingsService } from './service';

runService(settingsService);
