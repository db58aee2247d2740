import { z } from 'zod';

export const customersConfig = z.object({
  /** The payments service (host:port), asked about saved cards before they are linked to a customer. */
  PAYMENTS_GRPC_URL: z.string().min(1),
});

export type CustomersConfig = z.infer<typeof customersConfig>;
