import { makeGenericClientConstructor } from '@grpc/grpc-js';
import { AppError, createPromiseClient, errors, implement, startGrpcServer, type RunningGrpcServer, type ServerStreamMethod } from '../src';
import { silentLog } from './helpers';

interface CountRequest {
  upTo: number;
  failAt: number;
}
interface Chunk {
  n: number;
  data: string;
}

const json = <T>() => ({ serialize: (value: T) => Buffer.from(JSON.stringify(value)), deserialize: (buffer: Buffer) => JSON.parse(buffer.toString()) as T });
const request = json<CountRequest>();
const chunk = json<Chunk>();

/** A streaming method defined by hand, with JSON on the wire, as ts-proto defines one for a `stream` answer. */
const definition = {
  count: {
    path: '/test.v1.StreamService/Count',
    requestStream: false,
    responseStream: true,
    requestSerialize: request.serialize,
    requestDeserialize: request.deserialize,
    responseSerialize: chunk.serialize,
    responseDeserialize: chunk.deserialize,
  } satisfies ServerStreamMethod<CountRequest, Chunk>,
};

describe('gRPC server streaming', () => {
  let server: RunningGrpcServer;
  let client: ReturnType<typeof createPromiseClient<typeof definition>>;
  /** How far the last call's handler got, and whether it saw the end of its stream. */
  const progress = { produced: 0, finished: false };

  beforeAll(async () => {
    const implementation = implement(
      definition,
      {
        count: async function* (req) {
          progress.produced = 0;
          progress.finished = false;
          try {
            for (let n = 1; n <= req.upTo; n += 1) {
              if (n === req.failAt) throw errors.businessRule('stream_refused', `refused at ${n}`);
              progress.produced = n;
              yield { n, data: 'x'.repeat(16_384) };
            }
          } finally {
            progress.finished = true;
          }
        },
      },
      silentLog,
    );
    server = await startGrpcServer({ host: '127.0.0.1', port: 0, log: silentLog, services: [{ name: 'test.v1.StreamService', definition, implementation }] });
    const Client = makeGenericClientConstructor(definition, 'StreamService') as unknown as Parameters<typeof createPromiseClient>[1];
    client = createPromiseClient(definition, Client, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
  });

  it('delivers every message in order', async () => {
    const seen: number[] = [];
    for await (const message of client.count({ upTo: 500, failAt: 0 })) seen.push(message.n);
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(progress.finished).toBe(true);
  });

  it("fails with the handler's error, after the messages sent before it", async () => {
    const seen: number[] = [];
    let failure: unknown;
    try {
      for await (const message of client.count({ upTo: 100, failAt: 30 })) seen.push(message.n);
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'stream_refused' });
  });

  it('stops producing when the reader stops early, instead of running to the end', async () => {
    for await (const message of client.count({ upTo: 100_000, failAt: 0 })) {
      if (message.n === 5) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(progress.finished).toBe(true);
    // The writer waits for the reader: it got no further than what the transport's buffers hold.
    expect(progress.produced).toBeLessThan(1_000);
  });
});
