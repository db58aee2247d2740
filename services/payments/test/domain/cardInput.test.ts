import { AppError } from '@platform/kit';
import { parseInlineCard, parseTokenCard, type CardInput } from '../../src/modules/vault/app/cardInput';

const now = new Date('2025-06-15T12:00:00Z');

function card(overrides: Partial<CardInput> = {}): CardInput {
  return { cardHolderName: 'Maria Souza', cardNumber: '4111 1111-1111 1111', cardCvv: '123', cardExpirationDate: '06/2025', ...overrides };
}

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('parseTokenCard', () => {
  it('strips separators, reads the brand and keeps first six and last four digits', () => {
    expect(parseTokenCard(card({ cardHolderName: '  Maria   Souza ' }), now)).toEqual({
      number: '4111111111111111',
      cvv: '123',
      holderName: 'Maria Souza',
      expirationMonth: 6,
      expirationYear: 2025,
      brand: 'visa',
      first6: '411111',
      last4: '1111',
    });
  });

  it('wants 4 CVV digits for amex and 3 for other brands', () => {
    expect(parseTokenCard(card({ cardNumber: '378282246310005', cardCvv: '1234' }), now).brand).toBe('amex');
    expect(errorOf(() => parseTokenCard(card({ cardNumber: '378282246310005', cardCvv: '123' }), now)).details).toEqual([
      { field: 'cardCvv', message: 'must be 4 digits' },
    ]);
    expect(errorOf(() => parseTokenCard(card({ cardCvv: '1234' }), now)).details).toEqual([{ field: 'cardCvv', message: 'must be 3 digits' }]);
  });

  it.each([
    ['', 'is required'],
    ['4111', 'must be 12 to 19 digits'],
    ['41111111111111111111', 'must be 12 to 19 digits'],
    ['4111 1111 1111 111x', 'must be 12 to 19 digits'],
    ['4111111111111112', 'is not a valid card number'],
    ['6011111111111117', 'is not a card of a supported brand'],
  ])('refuses the number %j: %s', (cardNumber, message) => {
    const error = errorOf(() => parseTokenCard(card({ cardNumber }), now));
    expect(error.kind).toBe('validation');
    expect(error.details).toEqual([{ field: 'cardNumber', message }]);
  });

  it.each([
    ['05/2025', 'is in the past'],
    ['13/2025', 'must be a date as MM/YYYY'],
    ['2025-07', 'must be a date as MM/YYYY'],
    ['01/2046', 'must be at most 20 years ahead'],
  ])('refuses the expiration %j: %s', (cardExpirationDate, message) => {
    expect(errorOf(() => parseTokenCard(card({ cardExpirationDate }), now)).details).toEqual([{ field: 'cardExpirationDate', message }]);
  });

  it.each(['', 'M', 'x'.repeat(101)])('refuses the holder name %j', (cardHolderName) => {
    expect(errorOf(() => parseTokenCard(card({ cardHolderName }), now)).details).toEqual([{ field: 'cardHolderName', message: 'must be 2 to 100 characters' }]);
  });

  it('names every bad field at once, and a missing card too', () => {
    const error = errorOf(() => parseTokenCard({ cardNumber: '4111111111111112', cardCvv: '12', cardExpirationDate: 'soon', cardHolderName: '' }, now));
    expect(error.details?.map((d) => d.field)).toEqual(['cardNumber', 'cardCvv', 'cardExpirationDate', 'cardHolderName']);
    expect(errorOf(() => parseTokenCard(undefined, now)).details?.map((d) => d.field)).toEqual(['cardNumber', 'cardCvv', 'cardExpirationDate', 'cardHolderName']);
  });

  it('never repeats the number or the CVV in the error', () => {
    const error = errorOf(() => parseTokenCard(card({ cardNumber: '4111111111111112', cardCvv: '98765' }), now));
    const text = JSON.stringify({ message: error.message, details: error.details });
    expect(text).not.toContain('4111111111111112');
    expect(text).not.toContain('98765');
  });
});

describe('parseInlineCard', () => {
  it('answers a valid card like a token card', () => {
    expect(parseInlineCard(card(), now, 'paymentSource.card')).toEqual(parseTokenCard(card(), now));
  });

  it('declines a number that is no card as invalid_number', () => {
    for (const cardNumber of ['4111111111111112', '4111', '6011111111111117']) {
      const error = errorOf(() => parseInlineCard(card({ cardNumber }), now, 'paymentSource.card'));
      expect(error.kind).toBe('card_declined');
      expect(error.declinedCode).toBe('invalid_number');
      expect(error.message).not.toContain(cardNumber);
    }
  });

  it('declines a past expiration as expired_card', () => {
    const error = errorOf(() => parseInlineCard(card({ cardExpirationDate: '05/2025' }), now, 'paymentSource.card'));
    expect(error.kind).toBe('card_declined');
    expect(error.declinedCode).toBe('expired_card');
  });

  it('answers missing or malformed fields as a validation error under the prefix', () => {
    const error = errorOf(() => parseInlineCard(card({ cardCvv: '', cardHolderName: 'x', cardExpirationDate: '05/2025' }), now, 'paymentSource.card'));
    expect(error.kind).toBe('validation');
    expect(error.details?.map((d) => d.field)).toEqual(['paymentSource.card.cardCvv', 'paymentSource.card.cardHolderName']);
  });
});
