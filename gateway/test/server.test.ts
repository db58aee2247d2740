import http from 'node:http';
import type { customers } from '@platform/contracts';
import { listen } from '../src/server';
import { auth, buildGateway, captureLogger, sampleCustomer } from './helpers';

function get(port: number, path: string, headers: Record<string, string>, agent: http.Agent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('listen and stop', () => {
  it('stops accepting, finishes the request in flight, closes its keep-alive connection, then resolves', async () => {
    let release: (value: customers.Customer) => void = () => undefined;
    let called: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (called = resolve));
    const gw = buildGateway({
      customers: {
        getCustomer: () => {
          called();
          return new Promise<customers.Customer>((resolve) => (release = resolve));
        },
      },
    });
    const server = await listen(gw.app, { host: '127.0.0.1', port: 0, log: captureLogger().log });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const idle = await get(server.port, '/health', {}, agent);
      expect(idle.status).toBe(200);
      const inFlight = get(server.port, '/v1/customers/abc', auth(), agent);
      await reached;

      let stopped = false;
      const stopping = server.stop(60_000).then(() => (stopped = true));
      await expect(get(server.port, '/health', {}, new http.Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(stopped).toBe(false);

      release(sampleCustomer());
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body).id).toBe(sampleCustomer().id);
      expect(answered.headers.connection).toBe('close');
      await stopping;
      expect(stopped).toBe(true);
    } finally {
      agent.destroy();
      await server.stop();
    }
  });
});
