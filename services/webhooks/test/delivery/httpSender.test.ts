import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpSender, type Resolver } from '../../src/delivery/httpSender';
import { Receiver } from '../support/service';

/** A delivery of a client that may reach private targets unless `mayReachPrivate` says otherwise. */
const request = (endpoint: string, mayReachPrivate: () => Promise<boolean> = async () => true) => ({
  endpoint,
  headers: { 'content-type': 'application/json', 'webhook-id': 'evt-1' },
  body: '{"id":"evt-1"}',
  mayReachPrivate,
});

/** DNS as the test says it is. */
function resolver(table: Record<string, string[]>): Resolver {
  return async (hostname) => (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

describe('the HTTP sender', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it('posts the body and headers and reports the status and the duration', async () => {
    const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000 });
    const endpoint = receiver.endpoint();
    const result = await sender.send(request(endpoint));
    expect(result).toEqual({ statusCode: 200, durationMs: expect.any(Number), error: null, retryAfter: null });
    const [received] = receiver.to(endpoint);
    expect(received?.body).toBe('{"id":"evt-1"}');
    expect(received?.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt-1', 'content-length': '14' });
  });

  it('refuses a name that resolves to a private address, without connecting', async () => {
    const sender = createHttpSender({ allowPrivateTargets: false, timeoutMs: 5000, resolve: resolver({ 'hooks.example.test': ['127.0.0.1'] }) });
    const endpoint = receiver.endpoint('hooks.example.test');
    const result = await sender.send(request(endpoint));
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('refused: hooks.example.test is not a public address; only public addresses receive webhooks');
    expect(receiver.to(endpoint)).toEqual([]);
  });

  it("refuses a private target of a client that may not reach one, with the operator's switch on, and asks only for private targets", async () => {
    let asked = 0;
    const liveClient = async () => {
      asked += 1;
      return false;
    };
    const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000, resolve: resolver({ 'internal.example.test': ['10.0.0.7'], 'hooks.example.test': ['127.0.0.1'] }) });
    const endpoint = receiver.endpoint('hooks.example.test');
    const result = await sender.send(request(endpoint, liveClient));
    expect(result).toEqual({ statusCode: null, durationMs: expect.any(Number), error: 'refused: hooks.example.test is not a public address; only public addresses receive webhooks', retryAfter: null });
    expect(receiver.to(endpoint)).toEqual([]);
    expect((await sender.send(request('http://internal.example.test:5432/', liveClient))).error).not.toMatch(/10\.0\.0\.7|private|5432/);
    expect(asked).toBe(2);
    expect((await sender.send(request('http://nowhere.example.test/', liveClient))).error).toBe('nowhere.example.test has no address');
    expect(asked).toBe(2);
  });

  it('never reaches a private target when the switch is off, whatever the client may do', async () => {
    const sender = createHttpSender({ allowPrivateTargets: false, timeoutMs: 5000 });
    const endpoint = receiver.endpoint();
    expect((await sender.send(request(endpoint, async () => true))).error).toBe('refused: 127.0.0.1 is not a public address; only public addresses receive webhooks');
    expect(receiver.to(endpoint)).toEqual([]);
  });

  it('throws, recording nothing, when it cannot tell whether the client may reach a private target', async () => {
    const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000 });
    const endpoint = receiver.endpoint();
    await expect(sender.send(request(endpoint, async () => Promise.reject(new Error('settings unavailable'))))).rejects.toThrow('settings unavailable');
    expect(receiver.to(endpoint)).toEqual([]);
  });

  it('refuses a name when any of its addresses is private, and an IP literal that is', async () => {
    const sender = createHttpSender({
      allowPrivateTargets: false,
      timeoutMs: 5000,
      resolve: resolver({ 'mixed.example.test': ['93.184.216.34', '::ffff:10.0.0.1'] }),
    });
    expect((await sender.send(request('http://mixed.example.test/hook'))).error).toBe('refused: mixed.example.test is not a public address; only public addresses receive webhooks');
    expect((await sender.send(request('http://[fd00:ec2::254]/latest'))).error).toBe('refused: [fd00:ec2::254] is not a public address; only public addresses receive webhooks');
    expect((await sender.send(request('http://unknown.example.test/hook'))).error).toBe('unknown.example.test has no address');
  });

  it('connects to the address it checked, with the endpoint host in the Host header', async () => {
    const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000, resolve: resolver({ 'pinned.example.test': ['127.0.0.1'] }) });
    const endpoint = receiver.endpoint('pinned.example.test');
    expect((await sender.send(request(endpoint))).statusCode).toBe(200);
    expect(receiver.to(endpoint)[0]?.headers.host).toBe(`pinned.example.test:${receiver.port}`);
  });

  it('does not follow redirects', async () => {
    const endpoint = receiver.endpoint();
    receiver.answer = (r) => (r.path === new URL(endpoint).pathname ? 307 : 200);
    try {
      const result = await createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000 }).send(request(endpoint));
      expect(result.statusCode).toBe(307);
      expect(receiver.to(endpoint)).toHaveLength(1);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it("reports the answer's Retry-After header as sent, and none when no answer came", async () => {
    const answers = [
      { status: 429, retryAfter: '2' },
      { status: 503, retryAfter: 'Sun, 22 Nov 2026 03:11:18 GMT' },
      { status: 200, retryAfter: undefined },
    ];
    const server = http.createServer((req, res) => {
      const answer = answers[Number(req.url?.slice(1))]!;
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 5000 });
      const results = [];
      for (let i = 0; i < answers.length; i++) results.push(await sender.send(request(`http://127.0.0.1:${port}/${i}`)));
      expect(results.map((r) => [r.statusCode, r.retryAfter])).toEqual([
        [429, '2'],
        [503, 'Sun, 22 Nov 2026 03:11:18 GMT'],
        [200, null],
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const refused = await createHttpSender({ allowPrivateTargets: true, timeoutMs: 2000 }).send(request(`http://127.0.0.1:${port}/0`));
    expect(refused).toMatchObject({ statusCode: null, retryAfter: null });
  });

  it('gives up on a receiver that does not answer in time, and reports a refused connection without its address', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const sender = createHttpSender({ allowPrivateTargets: true, timeoutMs: 300 });
      const result = await sender.send(request(`http://127.0.0.1:${port}/slow`));
      expect(result).toMatchObject({ statusCode: null, error: 'no answer within 300 ms' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
    const closed = await createHttpSender({ allowPrivateTargets: true, timeoutMs: 2000 }).send(request(`http://127.0.0.1:${port}/gone`));
    expect(closed).toMatchObject({ statusCode: null, error: 'connection refused' });
  });
});
