import { AppError, isUuid, requireClientId } from '@platform/kit';
import { parseMerchantChanges, parseNewMerchant, parsePlatformFeeRules, parseProviderChanges, type CreateMerchantInput } from '../../src/modules/merchants/domain/merchant';

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe('validation');
    return ((error as AppError).details ?? []).map((d) => d.field);
  }
  throw new Error('expected a validation error');
}

function input(overrides: Partial<CreateMerchantInput> = {}): CreateMerchantInput {
  return {
    mcc: '5411',
    name: 'Loja',
    merchantName: 'LOJA',
    merchantUrl: 'https://loja.example.com',
    providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', key: 'secret' } }],
    ...overrides,
  };
}

describe('parseNewMerchant', () => {
  it('keeps a valid merchant, trimmed, with empty options by default', () => {
    expect(parseNewMerchant(input({ name: '  Loja  ', mcc: ' 5411 ' }))).toEqual({
      mcc: '5411',
      name: 'Loja',
      merchantName: 'LOJA',
      merchantUrl: 'https://loja.example.com',
      providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', key: 'secret' }, options: {} }],
    });
  });

  it('takes name, merchantName and merchantUrl as optional', () => {
    expect(parseNewMerchant(input({ name: '', merchantName: '', merchantUrl: '' })).merchantUrl).toBe('');
  });

  it.each(['541', '54111', 'abcd', ''])('refuses the mcc %j', (mcc) => {
    expect(fieldsOf(() => parseNewMerchant(input({ mcc })))).toEqual(['mcc']);
  });

  it.each(['ftp://loja.example.com', 'loja.example.com', 'javascript:alert(1)', 'http://'])('refuses the merchantUrl %j', (merchantUrl) => {
    expect(fieldsOf(() => parseNewMerchant(input({ merchantUrl })))).toEqual(['merchantUrl']);
  });

  it('wants at least one provider', () => {
    expect(fieldsOf(() => parseNewMerchant(input({ providers: [] })))).toEqual(['providers']);
  });

  it('names each bad provider field', () => {
    const fields = fieldsOf(() =>
      parseNewMerchant(
        input({
          providers: [
            { name: '', priority: 0, credentials: { type: 'ACME' } },
            { name: 'ok', priority: 1.5, credentials: undefined },
          ],
        }),
      ),
    );
    expect(fields.sort()).toEqual(['providers.0.credentials.type', 'providers.0.name', 'providers.0.priority', 'providers.1.credentials', 'providers.1.priority']);
  });

  it('refuses two payment providers with one priority, but lets an antifraud provider share it', () => {
    const sandbox = { name: 'a', priority: 1, credentials: { type: 'SANDBOX' } };
    expect(fieldsOf(() => parseNewMerchant(input({ providers: [sandbox, { ...sandbox, name: 'b', credentials: { type: 'SUBACQUIRER' } }] })))).toEqual([
      'providers.1.priority',
    ]);
    const parsed = parseNewMerchant(input({ providers: [sandbox, { name: 'af', priority: 1, credentials: { type: 'SANDBOX_ANTIFRAUD' } }] }));
    expect(parsed.providers.map((p) => p.credentials.type)).toEqual(['SANDBOX', 'SANDBOX_ANTIFRAUD']);
  });

  it('never repeats a credential value in its messages', () => {
    try {
      parseNewMerchant(input({ providers: [{ name: 'x', priority: 1, credentials: { type: 'sk_live_abc123' } }] }));
      throw new Error('expected a validation error');
    } catch (error) {
      expect(JSON.stringify({ message: (error as AppError).message, details: (error as AppError).details })).not.toContain('sk_live_abc123');
    }
  });
});

describe('parseMerchantChanges', () => {
  it('keeps only the fields given', () => {
    expect(parseMerchantChanges({ name: ' Nova ' })).toEqual({ name: 'Nova' });
    expect(parseMerchantChanges({ mcc: '1234', merchantUrl: '' })).toEqual({ mcc: '1234', merchantUrl: '' });
  });

  it('refuses an update without any field', () => {
    expect(() => parseMerchantChanges({})).toThrow(AppError);
    expect(fieldsOf(() => parseMerchantChanges({}))).toEqual([]);
  });

  it('names bad values', () => {
    expect(fieldsOf(() => parseMerchantChanges({ mcc: '12', merchantUrl: 'nope' })).sort()).toEqual(['mcc', 'merchantUrl']);
  });
});

describe('parseProviderChanges', () => {
  it('keeps only the fields given', () => {
    expect(parseProviderChanges({ priority: 3 })).toEqual({ priority: 3 });
    expect(parseProviderChanges({ credentials: { type: 'SUBACQUIRER', key: 'k' } })).toEqual({ credentials: { type: 'SUBACQUIRER', key: 'k' } });
  });

  it('refuses an update without any field, and bad values', () => {
    expect(() => parseProviderChanges({})).toThrow(AppError);
    expect(fieldsOf(() => parseProviderChanges({ priority: 0, credentials: { key: 'k' } })).sort()).toEqual(['credentials.type', 'priority']);
  });
});

describe('parsePlatformFeeRules', () => {
  it('keeps valid rules and leaves out the parts not given', () => {
    expect(
      parsePlatformFeeRules([
        { paymentMethod: 'credit', percentage: 250, installment: 3 },
        { paymentMethod: 'PIX', fixedAmount: 50 },
        { paymentMethod: 'default', percentage: 0, fixedAmount: 0 },
      ]),
    ).toEqual([
      { paymentMethod: 'credit', percentage: 250, installment: 3 },
      { paymentMethod: 'pix', fixedAmount: 50 },
      { paymentMethod: 'default', percentage: 0, fixedAmount: 0 },
    ]);
  });

  it('takes an empty list', () => {
    expect(parsePlatformFeeRules([])).toEqual([]);
  });

  it('names each bad rule field', () => {
    const fields = fieldsOf(() =>
      parsePlatformFeeRules([
        { paymentMethod: 'credit', percentage: 10_001 },
        { paymentMethod: 'cash', fixedAmount: -1 },
        { paymentMethod: 'debit' },
        { paymentMethod: 'credit', percentage: 1, installment: 25 },
        { paymentMethod: 'credit', percentage: 1.5, installment: 0 },
      ]),
    );
    expect(fields.sort()).toEqual([
      'rules.0.percentage',
      'rules.1.fixedAmount',
      'rules.1.paymentMethod',
      'rules.2',
      'rules.3.installment',
      'rules.4.installment',
      'rules.4.percentage',
    ]);
  });

  it('refuses two rules for the same payment method and installment', () => {
    expect(
      fieldsOf(() =>
        parsePlatformFeeRules([
          { paymentMethod: 'credit', percentage: 1 },
          { paymentMethod: 'credit', percentage: 2, installment: 2 },
          { paymentMethod: 'credit', fixedAmount: 3 },
          { paymentMethod: 'credit', fixedAmount: 3, installment: 2 },
        ]),
      ),
    ).toEqual(['rules.2', 'rules.3']);
  });
});

describe('ids', () => {
  it('recognises UUIDs only', () => {
    expect(isUuid('0b6f1c1e-9a4b-4c1e-8d3a-2f6f0c9b1a2d')).toBe(true);
    expect(isUuid('0B6F1C1E-9A4B-4C1E-8D3A-2F6F0C9B1A2D')).toBe(true);
    expect(isUuid("x' OR '1'='1")).toBe(false);
    expect(isUuid('')).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });

  it('refuses a client id that is not a UUID and lower-cases one that is', () => {
    expect(() => requireClientId('client')).toThrow(AppError);
    expect(requireClientId('0B6F1C1E-9A4B-4C1E-8D3A-2F6F0C9B1A2D')).toBe('0b6f1c1e-9a4b-4c1e-8d3a-2f6f0c9b1a2d');
  });
});
