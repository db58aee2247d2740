import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CARD_PAYMENT_TYPES, FEE_PAYMENT_METHODS, isPaymentType, PAYMENT_TYPES, SELLER_STATUSES, SESSION_STATUSES } from '../src';

const ROOT = path.resolve(__dirname, '../../..');
const DECLARED_IN = path.join('packages', 'api-model', 'src', 'enums.ts');

/** The TypeScript sources of the gateway, the services and the packages (generated code left out). */
function sources(): string[] {
  const roots = [
    path.join(ROOT, 'gateway', 'src'),
    ...['services', 'packages'].flatMap((group) => readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name, 'src'))),
  ];
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gen' && entry.name !== 'node_modules' && entry.name !== 'dist') walk(full);
      } else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  roots.forEach(walk);
  return files;
}

/** The files other than enums.ts that spell the list out: an array literal of its values, in order, with any quotes. */
function copiesOf(values: readonly string[]): string[] {
  const pattern = new RegExp(`\\[\\s*${values.map((v) => `['"\`]${v}['"\`]`).join('\\s*,\\s*')}\\s*[,\\]]`);
  return sources()
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file))
    .filter((file) => file !== DECLARED_IN);
}

describe('the shared enumerations', () => {
  it('are the public vocabulary', () => {
    expect(PAYMENT_TYPES).toEqual(['credit', 'debit', 'pix', 'boleto', 'voucher']);
    expect(CARD_PAYMENT_TYPES).toEqual(['credit', 'debit', 'voucher']);
    expect(FEE_PAYMENT_METHODS).toEqual([...PAYMENT_TYPES, 'default']);
    expect(SELLER_STATUSES).toEqual(['pending', 'active', 'partial', 'inactive', 'blocked']);
    expect(PAYMENT_TYPES.every(isPaymentType)).toBe(true);
    expect([isPaymentType('default'), isPaymentType(undefined), isPaymentType(1)]).toEqual([false, false, false]);
  });

  it('are declared once: no other source spells out the payment types, the seller statuses or the session statuses', () => {
    expect(copiesOf(PAYMENT_TYPES)).toEqual([]);
    expect(copiesOf(CARD_PAYMENT_TYPES)).toEqual([]);
    expect(copiesOf(SELLER_STATUSES)).toEqual([]);
    expect(copiesOf(SESSION_STATUSES)).toEqual([]);
  });
});
