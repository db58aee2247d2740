// One namespace per context; the generated modules live in src/gen (built from proto/, never committed).
export * as common from './gen/common/v1/errors';
export * as customers from './gen/customers/v1/customers';
export * as payments from './gen/payments/v1/payments';
export * as settings from './gen/settings/v1/settings';
export * as webhooks from './gen/webhooks/v1/webhooks';
