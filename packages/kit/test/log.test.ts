import net from 'node:net';
import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { createTestDatabase } from '@platform/testkit';
import { AppError, createLogger, createPool, scrub } from '../src';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger({ name: 'test', level: 'info', destination }), lines };
}

describe('log redaction', () => {
  it('removes card data, keys and auth headers wherever they sit', () => {
    const { log, lines } = capture();
    log.info(
      {
        cardNumber: '4111111111111111',
        body: { cardCvv: '123', apiKey: 'sk_sandbox_secret', paymentSource: { card: { cardNumber: '5555555555554444', cardCvv: '987' } } },
        req: { headers: { 'x-api-key': 'sk_sandbox_secret', 'x-admin-token': 'admintoken', authorization: 'Bearer x' } },
        note: 'customer typed 5105-1051-0510-5100 in the name field',
      },
      'card 4111 1111 1111 1111 seen',
    );
    log.error({ err: new Error('provider said 4012888888881881 is invalid') }, 'failed');
    const out = lines.join('');
    for (const secret of ['4111111111111111', '5555555555554444', '987', 'sk_sandbox_secret', 'admintoken', 'Bearer x', '4111 1111 1111 1111', '5105-1051-0510-5100', '4012888888881881']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('card [REDACTED] seen');
  });

  it('keeps ordinary numbers such as amounts, dates and short ids', () => {
    expect(scrub('amount 15000 for order 12345 at 2026-11-22')).toBe('amount 15000 for order 12345 at 2026-11-22');
  });

  it('keeps UUIDs whole, however many digits their dashed groups hold, and still redacts a card number beside one', () => {
    // 13 and more digits across dashes: a random request id is like this about once in a few hundred.
    const ids = ['12345678-1234-5678-9012-345678901234', 'abcdef12-3456-7890-1234-567890abcdef', '0A1B2C3D-1234-4567-8901-234567890123'];
    for (const id of ids) expect(scrub(`request ${id} done`)).toBe(`request ${id} done`);
    expect(scrub(`${ids[0]} paid with 4111 1111 1111 1111`)).toBe(`${ids[0]} paid with [REDACTED]`);
  });
});

describe('error serializer', () => {
  /** An error the way pg raises it: its own fields plus the client, whose connection parameters hold the password. */
  function pgError(): Error {
    const error = new Error('duplicate key value violates unique constraint "customers_email_key"');
    Object.assign(error, {
      code: '23505',
      severity: 'ERROR',
      routine: '_bt_check_unique',
      constraint: 'customers_email_key',
      table: 'customers',
      schema: 'public',
      detail: 'Key (email)=(ana@example.com) already exists.',
      where: 'SQL statement "INSERT INTO customers VALUES (ana@example.com)"',
      client: { connectionParameters: { user: 'customers', password: 'db-password-xyz', host: 'pg.internal', port: 5432 }, queryQueue: new Array(50).fill({ text: 'SELECT 1' }) },
    });
    return error;
  }

  it('keeps message, code, stack and the pg fields that name the rule, never the client or the row data', () => {
    const { log, lines } = capture();
    log.error({ err: pgError() }, 'insert failed');
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'duplicate key value violates unique constraint "customers_email_key"',
      code: '23505',
      severity: 'ERROR',
      routine: '_bt_check_unique',
      constraint: 'customers_email_key',
      table: 'customers',
    });
    expect(String(line.err.stack)).toContain('log.test.ts');
    for (const leaked of ['db-password-xyz', 'pg.internal', 'ana@example.com', 'connectionParameters', 'queryQueue', 'client']) {
      expect(lines[0]).not.toContain(leaked);
    }
    expect(Object.keys(line.err).sort()).toEqual(['code', 'constraint', 'message', 'routine', 'schema', 'severity', 'stack', 'table', 'type']);
  });

  it('serializes a cause chain and a connection error without its address', async () => {
    const { log, lines } = capture();
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect', address: '10.9.9.9', port: 5432 });
    log.warn({ err: new Error('could not reach the database', { cause: refused }) }, 'start failed');
    const line = JSON.parse(lines[0]!) as { err: { message: string; cause: Record<string, unknown> } };
    expect(line.err.message).toBe('could not reach the database');
    expect(line.err.cause).toMatchObject({ code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
    expect(line.err.cause).not.toHaveProperty('address');
    expect(lines[0]).not.toContain('10.9.9.9');
  });

  it('logs what the pool reports about a broken idle connection without the client', () => {
    const { log, lines } = capture();
    const pool = createPool({ url: 'postgres://customers:db-password-xyz@pg.internal:5432/customers', log });
    pool.emit('error', pgError(), {});
    const line = JSON.parse(lines[0]!) as { msg: string; err: Record<string, unknown> };
    expect(line.msg).toBe('idle database connection failed');
    expect(line.err.code).toBe('23505');
    expect(lines[0]).not.toContain('db-password-xyz');
    void pool.end();
  });
});

describe('error lines an operator can use, in every shape the platform logs', () => {
  type Line = { level: number; msg: string; err: Record<string, unknown> & { cause?: Record<string, unknown> } } & Record<string, unknown>;
  const lineOf = (lines: string[]) => JSON.parse(lines[lines.length - 1]!) as Line;

  it('keeps message, code and stack of `{ err }` and `{ err: error, errorId }`, as grpc.ts, the job runner and the consumer log them', () => {
    const { log, lines } = capture();
    log.warn({ err: Object.assign(new Error('relay pass failed'), { code: 'ECONNRESET' }), durable: 'webhooks-fanout' }, 'consumer interrupted; resuming');
    expect(lineOf(lines)).toMatchObject({ msg: 'consumer interrupted; resuming', durable: 'webhooks-fanout', err: { type: 'Error', message: 'relay pass failed', code: 'ECONNRESET' } });
    expect(String(lineOf(lines).err.stack)).toContain('log.test.ts');

    log.error({ err: new TypeError("Cannot read properties of undefined (reading 'id')"), errorId: 'e-1' }, 'unexpected error');
    const line = lineOf(lines);
    expect(line).toMatchObject({ errorId: 'e-1', err: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" } });
    expect(String(line.err.stack)).toMatch(/^TypeError: Cannot read/);
  });

  it('keeps an AppError with its kind and the gRPC error that caused it, without the metadata', () => {
    const { log, lines } = capture();
    const grpcError = Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
      code: 14,
      details: 'No connection established',
      metadata: { internalRepr: new Map([['x-api-key', ['sk_live_secret']]]) },
    });
    log.warn({ err: new AppError('unavailable', 'payments is unavailable', { cause: grpcError }) }, 'upstream unavailable');
    const line = lineOf(lines);
    expect(line.err).toMatchObject({ type: 'AppError', message: 'payments is unavailable', kind: 'unavailable' });
    expect(line.err.cause).toMatchObject({ type: 'Error', message: '14 UNAVAILABLE: No connection established', code: 14 });
    expect(String(line.err.cause?.stack)).toContain('log.test.ts');
    expect(lines.join('')).not.toContain('sk_live_secret');
    expect(lines.join('')).not.toContain('metadata');
  });

  it("keeps what body-parser's errors say (status and type) without the body they quote", () => {
    const { log, lines } = capture();
    const parseFailed = Object.assign(new SyntaxError('Unexpected token } in JSON at position 12'), {
      statusCode: 400,
      status: 400,
      expose: true,
      type: 'entity.parse.failed',
      body: '{"cardNumber":"4111111111111111","name":"Ana"}',
    });
    log.error({ err: parseFailed, errorId: 'e-2' }, 'internal error');
    const line = lineOf(lines);
    expect(line.err).toMatchObject({ type: 'SyntaxError', message: 'Unexpected token } in JSON at position 12' });
    expect(line.err.stack).toEqual(expect.stringContaining('SyntaxError'));
    expect(lines[0]).not.toContain('Ana');
  });

  it("keeps the message of node's own errors made in another realm, which are no `instanceof Error` here", async () => {
    const { log, lines } = capture();
    const foreign = runInNewContext('Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED", address: "10.9.9.9" })') as unknown;
    log.warn({ err: foreign }, 'foreign');
    expect(lineOf(lines).err).toMatchObject({ type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' });
    expect(lines[0]).not.toContain('10.9.9.9');

    const refused = await new Promise<unknown>((resolve) => net.connect({ port: 1, host: '127.0.0.1' }).once('error', resolve));
    log.warn({ err: refused }, 'connect failed');
    expect(lineOf(lines).err).toMatchObject({ message: expect.stringContaining('ECONNREFUSED'), code: 'ECONNREFUSED', syscall: 'connect' });
    expect(lineOf(lines).err.stack).toEqual(expect.any(String));
  });

  it('keeps a real PostgreSQL error as the rule that failed, without the values the request carried', async () => {
    const pool = createPool({ url: await createTestDatabase('kitlog'), log: createLogger({ name: 'test', level: 'silent' }) });
    try {
      await pool.query('CREATE TABLE people (email TEXT UNIQUE, id UUID)');
      await pool.query("INSERT INTO people (email) VALUES ('ana.private@example.com')");
      const { log, lines } = capture();
      const duplicate = await pool.query("INSERT INTO people (email) VALUES ('ana.private@example.com')").catch((e: unknown) => e);
      log.error({ err: duplicate, errorId: 'e-3' }, 'unexpected error');
      const uniqueLine = lineOf(lines);
      expect(uniqueLine.err).toMatchObject({ code: '23505', constraint: 'people_email_key', table: 'people', message: 'duplicate key value violates unique constraint "people_email_key"' });
      expect(uniqueLine.err.stack).toEqual(expect.any(String));

      const badUuid = await pool.query('SELECT * FROM people WHERE id = $1', ['ana.private.uuid@example.com']).catch((e: unknown) => e);
      log.warn({ err: new AppError('internal', 'lookup failed', { cause: badUuid }) }, 'lookup failed');
      const uuidLine = lineOf(lines);
      expect(uuidLine.err.cause).toMatchObject({ code: '22P02', message: 'invalid input syntax for type uuid: [REDACTED]' });
      expect(lines.join('')).not.toContain('ana.private');
    } finally {
      await pool.end();
    }
  });
});
