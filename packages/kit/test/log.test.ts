import { Writable } from 'node:stream';
import { createLogger, scrub } from '../src';

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
});
