import type { AppError } from '@platform/kit';
import { normaliseEndpoint, parseNewWebhook, parseWebhookChanges } from '../../src/domain/webhook';

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a failure');
}

const strict = { allowPrivateTargets: false };
const local = { allowPrivateTargets: true };

describe('webhook registration rules', () => {
  it('normalises the endpoint and applies the defaults', () => {
    expect(parseNewWebhook({ event: ' authorized ', endpoint: ' HTTPS://Hooks.Example.COM/path?a=1#frag' }, strict)).toEqual({
      event: 'authorized',
      endpoint: 'https://hooks.example.com/path?a=1',
      version: 1,
      active: true,
    });
    expect(parseNewWebhook({ event: '*', endpoint: 'http://hooks.example.com', version: 1.1, status: false }, strict)).toEqual({
      event: '*',
      endpoint: 'http://hooks.example.com/',
      version: 1.1,
      active: false,
    });
  });

  it('names every bad field', () => {
    const error = failure(() => parseNewWebhook({ event: 'charge.paid', endpoint: 'ftp://example.com/x', version: -1 }, strict));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([
      { field: 'event', message: 'must be "*" or an event of the catalogue (docs/events.md)' },
      { field: 'endpoint', message: 'must be an http or https URL' },
      { field: 'version', message: 'must be a positive number such as 1.1' },
    ]);
    expect(failure(() => parseNewWebhook({ event: '', endpoint: '' }, strict)).details).toEqual([
      { field: 'event', message: 'is required' },
      { field: 'endpoint', message: 'is required' },
    ]);
  });

  it.each([
    ['not a url', 'must be an absolute http or https URL'],
    ['https://user:secret@hooks.example.com/', 'must not carry credentials'],
    ['http://127.0.0.1:8080/hook', 'must reach a public address (127.0.0.1 is loopback)'],
    ['http://10.0.0.8/hook', 'must reach a public address (10.0.0.8 is private)'],
    ['http://169.254.169.254/latest/meta-data', 'must reach a public address (169.254.169.254 is cloud metadata)'],
    ['http://[::1]/hook', 'must reach a public address ([::1] is loopback)'],
    ['http://[::ffff:192.168.0.1]/hook', 'must reach a public address ([::ffff:c0a8:1] is IPv4-mapped private)'],
    ['http://localhost:3000/hook', 'must reach a public address (localhost is loopback)'],
    ['http://0.0.0.0/', 'must reach a public address (0.0.0.0 is unspecified)'],
  ])('refuses the endpoint %s', (endpoint, problem) => {
    expect(normaliseEndpoint(endpoint, false)).toEqual({ problem });
  });

  it('lets local endpoints through when private targets are allowed', () => {
    expect(normaliseEndpoint('http://127.0.0.1:8080/hook', true)).toEqual({ endpoint: 'http://127.0.0.1:8080/hook' });
    expect(parseNewWebhook({ event: '*', endpoint: 'http://localhost:3000/' }, local).endpoint).toBe('http://localhost:3000/');
  });

  it('takes partial changes and refuses an empty or invalid one', () => {
    expect(parseWebhookChanges({ status: false }, strict)).toEqual({ active: false });
    expect(parseWebhookChanges({ event: 'voided', endpoint: 'https://a.example.com', version: 2 }, strict)).toEqual({
      event: 'voided',
      endpoint: 'https://a.example.com/',
      version: 2,
    });
    expect(failure(() => parseWebhookChanges({}, strict)).message).toMatch(/Nothing to update/);
    expect(failure(() => parseWebhookChanges({ event: 'nope', endpoint: 'http://192.168.1.1/' }, strict)).details?.map((d) => d.field)).toEqual([
      'event',
      'endpoint',
    ]);
  });
});
