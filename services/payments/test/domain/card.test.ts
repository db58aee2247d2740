import { brandOf, cvvValid, digitsOnly, isExpired, luhnValid, parseExpiration } from '../../src/modules/vault/domain/card';

describe('luhnValid', () => {
  it.each(['4111111111111111', '5555555555554444', '378282246310005', '36227206271667', '6062825624254001', '4514160123456785'])(
    'accepts the valid number %s',
    (number) => {
      expect(luhnValid(number)).toBe(true);
    },
  );

  it.each(['4111111111111112', '5555555555554440', '378282246310006'])('refuses %s, whose check digit is wrong', (number) => {
    expect(luhnValid(number)).toBe(false);
  });

  it('refuses numbers shorter than 12 or longer than 19 digits, even with a right check digit', () => {
    expect(luhnValid('42424242420')).toBe(false);
    expect(luhnValid('424242424242')).toBe(true);
    expect(luhnValid('4000000000000000006')).toBe(true);
    expect(luhnValid('40000000000000000002')).toBe(false);
  });

  it('refuses anything but digits', () => {
    expect(luhnValid('4111 1111 1111 1111')).toBe(false);
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
    expect(luhnValid('411111111111111a')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
});

describe('digitsOnly', () => {
  it('strips the spaces and dashes people type', () => {
    expect(digitsOnly(' 4111 1111-1111 1111 ')).toBe('4111111111111111');
  });

  it('keeps other characters so that the number is refused later', () => {
    expect(digitsOnly('4111.1111')).toBe('4111.1111');
  });
});

describe('brandOf', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['4012888888881881', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['36227206271667', 'diners'],
    ['30569309025904', 'diners'],
    ['5067001234567890', 'elo'],
    ['5067781234567890', 'elo'],
    ['4514161234567890', 'elo'],
    ['6362971234567890', 'elo'],
    ['6504061234567890', 'elo'],
    ['6062821234567890', 'hipercard'],
    ['3841001234567890', 'hipercard'],
  ])('reads %s as %s', (number, brand) => {
    expect(brandOf(number)).toBe(brand);
  });

  it("reads Mercado Pago's Brazilian test cards by their brand", () => {
    expect(luhnValid('5031433215406351')).toBe(true);
    expect(brandOf('5031433215406351')).toBe('mastercard');
    expect(brandOf('4235647728025682')).toBe('visa');
    expect(brandOf('375365153556885')).toBe('amex');
    expect(brandOf('5067766783888311')).toBe('elo');
  });

  it('tells Elo and Hipercard apart from the Visa and Mastercard ranges they sit in', () => {
    expect(brandOf('4514171234567890')).toBe('visa');
    expect(brandOf('5066981234567890')).toBeUndefined();
    expect(brandOf('5067791234567890')).toBeUndefined();
    expect(brandOf('6062831234567890')).toBeUndefined();
  });

  it('answers undefined for unsupported or too short numbers', () => {
    expect(brandOf('6011111111111117')).toBeUndefined();
    expect(brandOf('9999991234567890')).toBeUndefined();
    expect(brandOf('41111')).toBeUndefined();
  });
});

describe('parseExpiration', () => {
  it('reads MM/YYYY and MM/YY', () => {
    expect(parseExpiration('07/2031')).toEqual({ month: 7, year: 2031 });
    expect(parseExpiration(' 7/2031 ')).toEqual({ month: 7, year: 2031 });
    expect(parseExpiration('12/31')).toEqual({ month: 12, year: 2031 });
  });

  it.each(['13/2030', '00/2030', '2030/07', '07-2030', '07/203', '', 'July 2030'])('refuses %j', (value) => {
    expect(parseExpiration(value)).toBeUndefined();
  });
});

describe('isExpired', () => {
  const now = new Date('2025-06-15T12:00:00Z');

  it('keeps a card valid through the last day of its month', () => {
    expect(isExpired({ month: 6, year: 2025 }, now)).toBe(false);
    expect(isExpired({ month: 6, year: 2025 }, new Date('2025-06-30T23:59:59Z'))).toBe(false);
    expect(isExpired({ month: 6, year: 2025 }, new Date('2025-07-01T00:00:00Z'))).toBe(true);
  });

  it('expires earlier months and years', () => {
    expect(isExpired({ month: 5, year: 2025 }, now)).toBe(true);
    expect(isExpired({ month: 12, year: 2024 }, now)).toBe(true);
    expect(isExpired({ month: 1, year: 2026 }, now)).toBe(false);
  });
});

describe('cvvValid', () => {
  it('wants 4 digits for amex and 3 for every other brand', () => {
    expect(cvvValid('1234', 'amex')).toBe(true);
    expect(cvvValid('123', 'amex')).toBe(false);
    expect(cvvValid('123', 'visa')).toBe(true);
    expect(cvvValid('1234', 'visa')).toBe(false);
    expect(cvvValid('123', 'elo')).toBe(true);
  });

  it('takes 3 or 4 digits when the brand is unknown', () => {
    expect(cvvValid('123', undefined)).toBe(true);
    expect(cvvValid('1234', undefined)).toBe(true);
    expect(cvvValid('12', undefined)).toBe(false);
  });

  it('refuses anything but digits', () => {
    expect(cvvValid('12a', 'visa')).toBe(false);
    expect(cvvValid(' 123', 'visa')).toBe(false);
  });
});
