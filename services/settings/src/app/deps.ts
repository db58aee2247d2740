import type { Clock, Pool } from '@platform/kit';
import type { Stores } from '../store';

export interface AppDeps {
  pool: Pool;
  stores: Stores;
  clock: Clock;
}
