import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import path from 'node:path';
import {
  loadPackageDefinition,
  Metadata,
  Server,
  ServerCredentials,
  credentials,
  status as GrpcStatus,
  type CallOptions,
  type ClientReadableStream,
  type ClientUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition as GrpcServiceDefinition,
  type ServiceError,
  type UntypedHandleCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { PROTO_DIR } from '@platform/contracts';
import { HealthImplementation } from 'grpc-health-check';
import { ZodError } from 'zod';
import { AppError, fromGrpcError, toGrpcError } from './errors';
import type { Logger } from './log';
import { observeGrpcCall } from './metrics';

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
  /**
   * Aborted when the caller is gone: it cancelled the call or its deadline passed. Long work checks it between its
   * steps, so that it does not go on unseen after its answer can no longer be heard.
   */
  signal: AbortSignal;
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
async function streamTo(call: ServerWritableStream<unknown, unknown>, messages: AsyncIterable<unknown>, context: CallContext, path: string): Promise<void> {
  const started = performance.now();
  let code: number = GrpcStatus.OK;
  try {
    for await (const message of messages) {
      if (call.cancelled) {
        code = GrpcStatus.CANCELLED;
        return;
      }
      if (!call.write(message)) await Promise.race([once(call, 'drain'), once(call, 'cancelled')]);
    }
    call.end();
  } catch (error) {
    const grpcError = toGrpcError(toAppError(error, context.log));
    code = grpcError.code;
    call.emit('error', grpcError);
  } finally {
    observeGrpcCall('server', path, code, (performance.now() - started) / 1000);
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
    /**
     * The call's context, and `done` to call once its handler has finished: grpc-js reports every call as cancelled
     * after its status is sent, so the signal is aborted only for a call whose handler is still at work. The
     * controller is made when a handler first reads the signal (most never do; an abort builds an exception).
     */
    const contextOf = (call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>): { context: CallContext; done: () => void } => {
      const { metadata } = call;
      const requestId = firstString(metadata, METADATA.requestId) ?? randomUUID();
      let gone: AbortController | undefined;
      let cancelled = false;
      const onCancelled = () => {
        cancelled = true;
        gone?.abort();
      };
      call.once('cancelled', onCancelled);
      const context: CallContext = {
        requestId,
        idempotencyKey: firstString(metadata, METADATA.idempotencyKey),
        metadata,
        log: log.child({ requestId, rpc: method.path }),
        get signal() {
          if (!gone) {
            gone = new AbortController();
            if (cancelled) gone.abort();
          }
          return gone.signal;
        },
      };
      return { context, done: () => call.removeListener('cancelled', onCancelled) };
    };
    if (method.responseStream) {
      implementation[name] = (call: ServerWritableStream<unknown, unknown>) => {
        const { context, done } = contextOf(call);
        void streamTo(call, (handler as StreamHandler<unknown, unknown>)(call.request, context), context, method.path).finally(done);
      };
      continue;
    }
    implementation[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const { context, done } = contextOf(call);
      const started = performance.now();
      (handler as Handler<unknown, unknown>)(call.request as RequestOf<S[typeof name]>, context).then(
        (response) => {
          done();
          observeGrpcCall('server', method.path, GrpcStatus.OK, (performance.now() - started) / 1000);
          callback(null, response);
        },
        (error: unknown) => {
          done();
          const grpcError = toGrpcError(toAppError(error, context.log));
          observeGrpcCall('server', method.path, grpcError.code, (performance.now() - started) / 1000);
          callback(grpcError);
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
  /** Answers NOT_SERVING to health checks from now on (readiness turns false) while calls are still served. */
  notServing(): void;
  /**
   * For a server started `waiting`: adds the services and answers SERVING from now on (readiness turns true). A
   * server is listening, NOT_SERVING, meanwhile, so its probes and clients see it waiting rather than gone.
   */
  serve(services: RegisteredService[]): void;
  /** Marks the server not serving, lets in-flight calls finish for up to graceMs, then forces it down. */
  shutdown(graceMs?: number): Promise<void>;
}

const HEALTH_SERVICE = 'grpc.health.v1.Health';
let protoDefinitions: PackageDefinition | undefined;

/** Every .proto of the platform and the health service's, loaded once per process for reflection. */
function platformProtos(): PackageDefinition {
  if (protoDefinitions) return protoDefinitions;
  const files = (readdirSync(PROTO_DIR, { recursive: true }) as string[]).filter((f) => f.endsWith('.proto')).sort();
  const healthProto = require.resolve('grpc-health-check/proto/health/v1/health.proto');
  protoDefinitions = loadSync([...files, healthProto], { includeDirs: [PROTO_DIR, path.dirname(healthProto)], keepCase: true });
  return protoDefinitions;
}

/** The options @grpc/reflection decodes its own messages with: the definitions served here must decode alike. */
const REFLECTION_LOADER_OPTIONS = { longs: String, enums: String, bytes: Array, defaults: true, oneofs: true };

/** The ServerReflection service of one version of the reflection protocol, from @grpc/reflection's own .proto. */
function reflectionDefinition(version: 'v1' | 'v1alpha'): GrpcServiceDefinition {
  const file = require.resolve(`@grpc/reflection/build/proto/grpc/reflection/${version}/reflection.proto`);
  const loaded = loadPackageDefinition(loadSync(file, REFLECTION_LOADER_OPTIONS)) as unknown as {
    grpc: { reflection: Record<string, { ServerReflection: { service: GrpcServiceDefinition } }> };
  };
  return loaded.grpc.reflection[version]!.ServerReflection.service;
}

/**
 * gRPC server reflection (v1 and v1alpha) for the services this server runs and its health service, so an operator
 * can list and call any RPC with grpcurl without the .proto files: `grpcurl -plaintext host:port list`. The
 * descriptors of every .proto of the platform (most of a second of CPU and some 20 MB of heap in each process) are
 * built at the first reflection call, not at start: few processes are ever asked.
 */
function addReflection(server: Server, serviceNames: string[]): void {
  let handlers: Map<string, UntypedHandleCall> | undefined;
  /** The handlers @grpc/reflection adds to a server, by method path, taken from a stand-in server once. */
  const built = (): Map<string, UntypedHandleCall> => {
    if (handlers) return handlers;
    const found = new Map<string, UntypedHandleCall>();
    const recorder = {
      addService(definition: GrpcServiceDefinition, implementation: UntypedServiceImplementation) {
        for (const [name, method] of Object.entries(definition)) {
          const handler = implementation[name];
          if (handler) found.set(method.path, handler);
        }
      },
    };
    new ReflectionService(platformProtos(), { services: [...serviceNames, HEALTH_SERVICE] }).addToServer(recorder as unknown as Server);
    return (handlers = found);
  };
  for (const version of ['v1', 'v1alpha'] as const) {
    const definition = reflectionDefinition(version);
    const implementation: UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      implementation[name] = ((call: unknown) => (built().get(method.path) as (call: unknown) => void)(call)) as UntypedHandleCall;
    }
    server.addService(definition, implementation);
  }
}

export async function startGrpcServer(options: {
  host?: string;
  port?: number;
  services: RegisteredService[];
  log: Logger;
  /** See GRPC_MAX_CONNECTION_AGE_MS; 0 or omitted: connections live as long as their clients keep them. */
  maxConnectionAgeMs?: number;
  /** Listen with the health service only, answering NOT_SERVING, until serve() brings the services (`services` unused). */
  waiting?: boolean;
}): Promise<RunningGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs, 'grpc.max_connection_age_grace_ms': 30_000 } : {}),
  });
  const statuses: Record<string, 'SERVING' | 'NOT_SERVING'> = { '': options.waiting ? 'NOT_SERVING' : 'SERVING' };
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  let served = false;
  const serve = (services: RegisteredService[]) => {
    if (served) throw new Error('the gRPC server already serves its services');
    served = true;
    // grpc-js looks a method's handler up at each call, so services added to a listening server are served at once.
    for (const s of services) server.addService(s.definition, s.implementation);
    addReflection(server, services.map((s) => s.name));
    for (const name of ['', ...services.map((s) => s.name)]) {
      statuses[name] = 'SERVING';
      health.setStatus(name, 'SERVING');
    }
  };
  if (!options.waiting) serve(options.services);
  const address = `${options.host ?? '0.0.0.0'}:${options.port ?? 0}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, boundPort) => (error ? reject(error) : resolve(boundPort)));
  });
  options.log.info({ port, ...(options.waiting ? { serving: false } : {}) }, 'gRPC server listening');
  const notServing = () => {
    for (const name of Object.keys(statuses)) health.setStatus(name, 'NOT_SERVING');
  };
  return {
    port,
    health,
    notServing,
    serve,
    shutdown: async (graceMs = 10_000) => {
      notServing();
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
 * The grpc-js target for an upstream address: `host:port` as it is (grpc-js resolves the name through DNS and gets
 * every address of it: a Kubernetes headless Service answers one per ready pod), or a comma-separated list of
 * IP:port, one per replica (`127.0.0.1:5001,127.0.0.1:5002`, as `npm start` gives with REPLICAS), which becomes the
 * `ipv4:`/`ipv6:` target that lists them. A list of names is refused: grpc-js resolves one name per target.
 */
export function grpcTarget(address: string): string {
  const parts = address.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length === 0) throw new Error('empty gRPC address');
  if (parts.length === 1) return parts[0]!;
  const hosts = parts.map((part) => {
    const bracketed = /^\[([0-9A-Fa-f:.]+)\]:(\d{1,5})$/.exec(part);
    if (bracketed) return { family: 6, host: part };
    const plain = /^([^:]+):(\d{1,5})$/.exec(part);
    if (plain && isIPv4(plain[1]!)) return { family: 4, host: part };
    throw new Error(`gRPC address list ${address}: ${part} is not IP:port (a list takes IP addresses; give one DNS name for several replicas)`);
  });
  const family = hosts[0]!.family;
  if (hosts.some((h) => h.family !== family)) throw new Error(`gRPC address list ${address}: IPv4 and IPv6 addresses cannot be mixed`);
  return `ipv${family}:${hosts.map((h) => h.host).join(',')}`;
}

/**
 * Channel options every client of the platform uses: calls spread over every address the target resolves to (one
 * per replica), each replica on a connection of its own (round_robin; grpc-js's default, pick_first, would send
 * everything to the first one), and a restarted upstream found again within seconds instead of after grpc-js's
 * default two-minute backoff cap.
 */
export const CLIENT_CHANNEL_OPTIONS = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.keepalive_time_ms': 30_000,
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 3000,
  'grpc.max_receive_message_length': 8 * 1024 * 1024,
} as const;

/**
 * Builds a promise client over a ts-proto grpc-js client constructor, for one address or a list of replicas (see
 * grpcTarget), its calls spread round robin over them. Errors come back as the AppError the
 * service raised (kind, businessCode, declinedCode, field details), so upstream codes survive each hop.
 */
export function createPromiseClient<S extends ServiceDefinition>(
  definition: S,
  ClientConstructor: new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: object) => GeneratedClient,
  address: string,
  defaults: { deadlineMs?: number } = {},
): PromiseClient<S> {
  const client = new ClientConstructor(grpcTarget(address), credentials.createInsecure(), CLIENT_CHANNEL_OPTIONS) as unknown as Record<string, UnaryClientMethod<unknown, unknown>> & GeneratedClient;
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
    const path = definition[name]!.path;
    wrapped[name] = (request: unknown, meta: CallMeta = {}) =>
      new Promise((resolve, reject) => {
        const metadata = metadataOf(meta);
        const deadlineMs = meta.deadlineMs ?? defaults.deadlineMs ?? 15_000;
        const started = performance.now();
        method.call(client, request, metadata, { deadline: Date.now() + deadlineMs }, (error, response) => {
          observeGrpcCall('client', path, error ? error.code : GrpcStatus.OK, (performance.now() - started) / 1000);
          if (error) reject(fromGrpcError(error));
          else resolve(response);
        });
      });
  }
  return wrapped as PromiseClient<S>;
}
