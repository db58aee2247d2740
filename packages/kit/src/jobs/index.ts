/** Durable jobs: scheduling in the caller's transaction, the runner and its cron schedules, inspection. */
export { JOBS_SCHEMA } from './stored';
export * from './schedule';
export * from './runner';
export * from './inspect';
