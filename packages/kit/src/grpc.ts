import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  Metadata,
  Server,
  ServerCredentials,
  credentials,
  type CallOptions,
  type ClientReadableStream,
  type ClientUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ZodError } from 'zod';
import { AppError, fromGrpcError, toGrpcError } from './errors';
import type { Logger } from './log';

/** The shape ts-proto generates for each unary method of a service definition. */
export interface UnaryMethod<Req, Res> {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize(value: Req): Buffer;
  requestDeserialize(value: Buffer): Req;
  responseSerialize(value: Res): Buffer;
  responseDeserialize(value: Buffer): Res;
}

/** A method whose answer is a stream of messages (a file read in chunks, say). */
export interface ServerStreamMethod<Req, Res> extends Omit<UnaryMethod<Req, Res>, 'responseStream'> {
  responseStream: true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ServiceDefinition = Record<string, UnaryMethod<any, any> | ServerStreamMethod<any, any>>;
type RequestOf<M> = M extends { requestDeserialize(value: Buffer): infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseDeserialize(value: Buffer): infer Res } ? Res : never;

export const METADATA = {
  idempotencyKey: 'x-idempotency-key',
  requestId: 'x-request-id',
} as const;

/** What a handler knows about the call besides its request. */
export interface CallContext {
  requestId: string;
  idempotencyKey?: string;
  metadata: Metadata;
  log: Logger;
}

export type Handler<Req, Res> = (request: Req, context: CallContext) => Promise<Res>;
/** A streaming handler yields its messages; the stream ends when it returns, and fails with what it throws. */
export type StreamHandler<Req, Res> = (request: Req, context: CallContext) => AsyncIterable<Res>;
export type Handlers<S extends ServiceDefinition> = {
  [K in keyof S]: S[K] extends { responseStream: true } ? StreamHandler<RequestOf<S[K]>, ResponseOf<S[K]>> : Handler<RequestOf<S[K]>, ResponseOf<S[K]>>;
};

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Turns anything thrown by a handler into the AppError the caller will see. */
export function toAppError(error: unknown, log: Logger): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    return new AppError('validation', 'Invalid request', {
      details: error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
    });
  }
  const errorId = randomUUID();
  log.error({ err: error, errorId }, 'unexpected error');
  return new AppError('internal', `Internal error, logId=${errorId}`, { errorId });
}

/**
 * Writes what a streaming handler yields, waiting whenever the client is slower than the handler (memory stays
 * flat), and stops reading when the client goes away. A failure before or during the stream is the call's status.
 */
async function streamTo(call: ServerWritableStream<unknown, unknown>, messages: AsyncIterable<unknown>, context: CallContext): Promise<void> {
  try {
    for await (const message of messages) {
      if (call.cancelled) return;
      if (!call.write(message)) await Promise.race([once(call, 'drain'), once(call, 'cancelled')]);
    }
    call.end();
  } catch (error) {
    call.emit('error', toGrpcError(toAppError(error, context.log)));
  }
}

/**
 * Adapts `async (request, context) => response` handlers to grpc-js. Errors are encoded once, here:
 * the kind travels as the gRPC status and the full detail in trailing metadata.
 */
export function implement<S extends ServiceDefinition>(definition: S, handlers: Handlers<S>, log: Logger): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const name of Object.keys(definition) as Array<keyof S & string>) {
    const handler = handlers[name];
    const method = definition[name]!;
    const contextOf = (metadata: Metadata): CallContext => {
      const requestId = firstString(metadata, METADATA.requestId) ?? randomUUID();
      return { requestId, idempotencyKey: firstString(metadata, METADATA.idempotencyKey), metadata, log: log.child({ requestId, rpc: method.path }) };
    };
    if (method.responseStream) {
      implementation[name] = (call: ServerWritableStream<unknown, unknown>) => {
        const context = contextOf(call.metadata);
        void streamTo(call, (handler as StreamHandler<unknown, unknown>)(call.request, context), context);
      };
      continue;
    }
    implementation[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const context = contextOf(call.metadata);
      (handler as Handler<unknown, unknown>)(call.request as RequestOf<S[typeof name]>, context).then(
        (response) => callback(null, response),
        (error: unknown) => {
          const appError = toAppError(error, context.log);
          callback(toGrpcError(appError));
        },
      );
    };
  }
  return implementation;
}

export interface RegisteredService {
  /** Fully qualified name for the health service, e.g. `settings.v1.SettingsService`. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  /** Marks the server not serving, lets in-flight calls finish for up to graceMs, then forces it down. */
  shutdown(graceMs?: number): Promise<void>;
}

export async function startGrpcServer(options: {
  host?: string;
  port?: number;
  services: RegisteredService[];
  log: Logger;
}): Promise<RunningGrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': 8 * 1024 * 1024 });
  const statuses: Record<string, 'SERVING'> = { '': 'SERVING' };
  for (const s of options.services) {
    server.addService(s.definition, s.implementation);
    statuses[s.name] = 'SERVING';
  }
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  const address = `${options.host ?? '0.0.0.0'}:${options.port ?? 0}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, boundPort) => (error ? reject(error) : resolve(boundPort)));
  });
  options.log.info({ port }, 'gRPC server listening');
  return {
    port,
    health,
    shutdown: async (graceMs = 10_000) => {
      for (const name of Object.keys(statuses)) health.setStatus(name, 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** Per-call options a client passes on. */
export interface CallMeta {
  requestId?: string;
  idempotencyKey?: string;
  deadlineMs?: number;
}

type UnaryClientMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

type StreamClientMethod<Req, Res> = (request: Req, metadata: Metadata, options: Partial<CallOptions>) => ClientReadableStream<Res>;

/**
 * A generated grpc-js client with each unary method as `(request, meta?) => Promise<response>`, and each streaming
 * one as `(request, meta?) => AsyncIterable<message>`.
 */
export type PromiseClient<S extends ServiceDefinition> = {
  [K in keyof S]: S[K] extends { responseStream: true }
    ? (request: RequestOf<S[K]>, meta?: CallMeta) => AsyncIterable<ResponseOf<S[K]>>
    : (request: RequestOf<S[K]>, meta?: CallMeta) => Promise<ResponseOf<S[K]>>;
} & { close(): void };

/** How long a stream may take (a large file): far longer than a single answer. */
const STREAM_DEADLINE_MS = 30 * 60_000;

/** The messages of a stream; its failure is the AppError the service raised. */
async function* messagesOf<T>(stream: ClientReadableStream<T>): AsyncGenerator<T> {
  try {
    for await (const message of stream) yield message as T;
  } catch (error) {
    throw fromGrpcError(error as ServiceError);
  } finally {
    stream.cancel();
  }
}

interface GeneratedClient {
  close(): void;
}

/**
 * Builds a promise client over a ts-proto grpc-js client constructor. Errors come back as the AppError the
 * service raised (kind, businessCode, declinedCode, field details), so upstream codes survive each hop.
 */
export function createPromiseClient<S extends ServiceDefinition>(
  definition: S,
  ClientConstructor: new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => GeneratedClient,
  address: string,
  defaults: { deadlineMs?: number } = {},
): PromiseClient<S> {
  const client = new ClientConstructor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    // A restarted upstream is found again within seconds instead of after grpc-js's default two-minute backoff cap.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 3000,
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
  }) as unknown as Record<string, UnaryClientMethod<unknown, unknown>> & GeneratedClient;
  const wrapped: Record<string, unknown> = { close: () => client.close() };
  const metadataOf = (meta: CallMeta) => {
    const metadata = new Metadata();
    if (meta.requestId) metadata.set(METADATA.requestId, meta.requestId);
    if (meta.idempotencyKey) metadata.set(METADATA.idempotencyKey, meta.idempotencyKey);
    return metadata;
  };
  for (const name of Object.keys(definition)) {
    const method = client[name];
    if (typeof method !== 'function') continue;
    if (definition[name]!.responseStream) {
      const stream = method as unknown as StreamClientMethod<unknown, unknown>;
      wrapped[name] = (request: unknown, meta: CallMeta = {}) =>
        messagesOf(stream.call(client, request, metadataOf(meta), { deadline: Date.now() + (meta.deadlineMs ?? STREAM_DEADLINE_MS) }));
      continue;
    }
    wrapped[name] = (request: unknown, meta: CallMeta = {}) =>
      new Promise((resolve, reject) => {
        const metadata = metadataOf(meta);
        const deadlineMs = meta.deadlineMs ?? defaults.deadlineMs ?? 15_000;
        method.call(client, request, metadata, { deadline: Date.now() + deadlineMs }, (error, response) =>
          error ? reject(fromGrpcError(error)) : resolve(response),
        );
      });
  }
  return wrapped as PromiseClient<S>;
}
