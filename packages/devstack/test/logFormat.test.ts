import { lineFormatter, logFormat } from '../src/logFormat';

const entry = {
  level: 'warn',
  time: '2025-03-01T12:04:31.250Z',
  pid: 4242,
  hostname: 'dev-box',
  service: 'payments',
  name: 'payments',
  msg: 'provider slow',
  requestId: 'req-1',
  trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
};

describe('the launcher log format', () => {
  it('is pretty on a terminal unless LOG_FORMAT=json, JSON otherwise', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, true)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({}, undefined)).toBe('json');
  });

  it('prints a JSON log line as one readable line: time, level, process, message, the useful fields', () => {
    const format = lineFormatter({ format: 'pretty', colorize: false });
    const line = format('payments', JSON.stringify(entry));
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.250 WARN {2}\(payments\): provider slow \{.*\}$/);
    expect(line).toContain('"requestId":"req-1"');
    expect(line).toContain('"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"');
    expect(line).not.toContain('\n');
    for (const noise of ['4242', 'dev-box', '"service"', '"name"', '"msg"', '"level"']) expect(line).not.toContain(noise);
  });

  it("prints the gateway's line for a request short: method, path, status and time, without headers or ids", () => {
    const access = {
      level: 'info',
      time: '2025-03-01T12:04:31.250Z',
      name: 'gateway',
      msg: 'POST /v1/charges 201',
      requestId: 'req-1',
      clientId: 'client-1',
      req: { method: 'POST', path: '/v1/charges', headers: { 'user-agent': 'curl/8.0', 'x-client-id': 'client-1', accept: '*/*' } },
      res: { status: 201 },
      durationMs: 12,
    };
    const line = lineFormatter({ format: 'pretty', colorize: false })('gateway', JSON.stringify(access));
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.250 INFO {2}\(gateway\): POST \/v1\/charges 201 12 ms$/);
  });

  it('names the process that printed the line, and colors the level when asked', () => {
    const line = lineFormatter({ format: 'pretty', colorize: true })('sessions', JSON.stringify({ ...entry, level: 'error' }));
    expect(line).toContain('\u001b[31mERROR\u001b[39m');
    expect(line).toContain('sessions');
  });

  it('prints lines that are not log entries as they are, behind the process name', () => {
    const format = lineFormatter({ format: 'pretty', colorize: false });
    expect(format('nats', '[81] 2025/03/01 12:04:31.250 [INF] Server is ready')).toBe('[nats     ] [81] 2025/03/01 12:04:31.250 [INF] Server is ready');
    expect(format('gateway', '    at main (/app/gateway/dist/main.js:10:5)')).toBe('[gateway  ]     at main (/app/gateway/dist/main.js:10:5)');
    expect(format('gateway', '{ not json')).toBe('[gateway  ] { not json');
  });

  it('leaves JSON lines unchanged in json mode', () => {
    const json = JSON.stringify(entry);
    expect(lineFormatter({ format: 'json' })('payments', json)).toBe(`[payments ] ${json}`);
  });
});
