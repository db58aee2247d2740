import request from 'supertest';
import { generatorDocument } from '../src/openapi/write';
import { ADMIN_TOKEN, buildGateway, PUBLIC_URL } from './helpers';

interface Server {
  url: string;
  variables?: Record<string, { default: string }>;
}
interface Document {
  servers: Server[];
  paths: Record<string, { servers?: Server[] } & Record<string, unknown>>;
  components: { securitySchemes: Record<string, unknown> };
  info: { title: string; description: string };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) => METHODS.filter((method) => method in item).map((method) => ({ method, path })));
const filled = (server: Server) => server.url.replace(/\{(\w+)\}/g, (_m, name: string) => server.variables?.[name]?.default ?? '?');

describe('the docs page of the public listener', () => {
  it('lists no admin route: every operation it shows answers on the public server', async () => {
    const gw = buildGateway();
    const init = await request(gw.app).get('/docs/init.js');
    expect(init.text).toContain("url: '/v1/openapi.json'");
    const document = (await request(gw.app).get('/v1/openapi.json')).body as Document;
    expect(document.servers).toEqual([{ url: PUBLIC_URL, description: expect.any(String) }]);
    const listed = operations(document);
    expect(listed.length).toBeGreaterThan(40);
    expect(listed.filter(({ path }) => path.startsWith('/admin'))).toEqual([]);
    expect(document.components.securitySchemes).not.toHaveProperty('AdminToken');
    expect(document.info.description).toContain('ADMIN_PORT');
    // What the page lists is reachable where it says: an admin path there would answer 404 (route_not_found).
    const admin = await request(gw.app).get('/admin/v1/openapi.json');
    expect(admin.status).toBe(404);
  });
});

describe('the docs page of the admin listener', () => {
  it('serves its own page and document, every admin route under the listener that served it', async () => {
    const gw = buildGateway();
    const page = await request(gw.admin).get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('admin API');
    const init = await request(gw.admin).get('/docs/init.js');
    expect(init.text).toContain("url: '/admin/v1/openapi.json'");
    for (const asset of [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      expect({ asset, status: (await request(gw.admin).get(asset)).status }).toEqual({ asset, status: 200 });
    }

    const res = await request(gw.admin).get('/admin/v1/openapi.json');
    expect(res.status).toBe(200);
    const document = res.body as Document;
    expect(document.servers).toEqual([{ url: '/', description: expect.stringContaining('ADMIN_PORT') }]);
    const listed = operations(document);
    expect(listed.length).toBeGreaterThanOrEqual(3);
    for (const { path } of listed) expect(path.startsWith('/admin/v1/')).toBe(true);
    expect(Object.keys(document.components.securitySchemes)).toEqual(['AdminToken']);
  });

  it('lists routes that answer there: Try-it-out with the admin token reaches them on the admin listener', async () => {
    const gw = buildGateway();
    const document = (await request(gw.admin).get('/admin/v1/openapi.json')).body as Document;
    expect(document.paths['/admin/v1/clients']).toBeDefined();
    // The page resolves the relative server against its own address: the admin listener.
    const base = new URL(document.servers[0]!.url, 'http://localhost:8081/docs');
    expect(base.origin).toBe('http://localhost:8081');
    // An empty body is refused at the edge there (the route exists), and the public listener does not know the route.
    const there = await request(gw.admin).post('/admin/v1/clients').set('X-Admin-Token', ADMIN_TOKEN).send({});
    expect(there.status).toBe(400);
    const publicOne = await request(gw.app).post('/admin/v1/clients').set('X-Admin-Token', ADMIN_TOKEN).send({});
    expect(publicOne.status).toBe(404);
  });
});

describe('the document for client generators', () => {
  it('names the admin listener as the server of every admin path, and the public server for the others', () => {
    const document = generatorDocument() as unknown as Document;
    expect(new URL(filled(document.servers[0]!)).origin).toBe('https://localhost:8080');
    const adminPaths = Object.keys(document.paths).filter((path) => path.startsWith('/admin'));
    expect(adminPaths.length).toBeGreaterThanOrEqual(3);
    for (const path of adminPaths) {
      const servers = document.paths[path]!.servers ?? [];
      expect({ path, servers: servers.map((server) => new URL(filled(server)).origin) }).toEqual({ path, servers: ['http://localhost:8081'] });
    }
    for (const path of Object.keys(document.paths).filter((p) => !p.startsWith('/admin'))) {
      expect({ path, servers: document.paths[path]!.servers }).toEqual({ path, servers: undefined });
    }
  });
});
