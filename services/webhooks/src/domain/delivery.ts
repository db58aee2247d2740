import { DELIVERY_STATUSES, type DeliveryStatus } from '@platform/api-model';

export { DELIVERY_STATUSES, type DeliveryStatus };

export interface DeliveryAttempt {
  attemptedAt: Date;
  /** The receiver's HTTP status; null when no answer came. */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  /** The public event name. */
  event: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function isDeliveryStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}
