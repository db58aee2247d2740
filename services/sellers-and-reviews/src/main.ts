import { runService } from '@platform/kit';
import { sellersAndReviewsService } from './service';

runService(sellersAndReviewsService);
