import { credentials, makeGenericClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const HealthClient = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');

/** One standard grpc.health.v1 Check; resolves true when the server says SERVING. */
export function isServing(address: string, deadlineMs = 1000): Promise<boolean> {
  const client = new HealthClient(address, credentials.createInsecure()) as unknown as {
    check(req: { service: string }, opts: { deadline: number }, cb: (e: ServiceError | null, r?: { status?: string | number }) => void): void;
    close(): void;
  };
  return new Promise((resolve) => {
    client.check({ service: '' }, { deadline: Date.now() + deadlineMs }, (error, response) => {
      client.close();
      resolve(!error && (response?.status === 'SERVING' || response?.status === 1));
    });
  });
}

/** Waits until the server at `address` reports SERVING, or fails after waitMs. */
export async function checkHealth(address: string, options: { waitMs: number }): Promise<void> {
  const deadline = Date.now() + options.waitMs;
  while (!(await isServing(address))) {
    if (Date.now() > deadline) throw new Error(`gRPC server at ${address} did not become healthy within ${options.waitMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
