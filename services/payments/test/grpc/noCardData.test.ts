import { randomInt, randomUUID } from 'node:crypto';
import type { payments } from '@platform/contracts';
import { withTransaction } from '@platform/kit';
import { cardInput, cardNumber, failureOf, merchantRequest, startPayments, type RunningPayments, cardSourceOf } from '../support/payments';
import { cvvPattern, sweep as sweepOf } from '../support/sweep';

let running: RunningPayments;
/** Every column of the service's database, searched for card data in clear. */
const sweep = (needles: { numbers: string[]; cvvs: string[]; texts: string[] }) => sweepOf(running.pool, needles);

/** Every number and CVV that entered the service in this suite. */
const numbers: string[] = [];
const cvvs: string[] = [];
/** Everything the service answered, errors included. */
const answers: unknown[] = [];
const holderName = `Sweep Holder ${randomUUID().slice(0, 8).replace(/[0-9]/g, 'x')}`;
const last4s: string[] = [];

function newCvv(length: 3 | 4): string {
  for (;;) {
    // Away from years (20xx) and the MCC, and never a card's last four digits, so a match can only be a stored CVV.
    const cvv = length === 3 ? String(300 + randomInt(700)) : String(3000 + randomInt(7000));
    if (!cvvs.includes(cvv) && cvv !== '5411' && !last4s.includes(cvv)) return cvv;
  }
}

function newCard(prefix: string, length: number, cvvLength: 3 | 4): payments.CardInput {
  let number = cardNumber(prefix, length);
  while (cvvs.includes(number.slice(-4))) number = cardNumber(prefix, length);
  numbers.push(number);
  last4s.push(number.slice(-4));
  const cvv = newCvv(cvvLength);
  cvvs.push(cvv);
  return cardInput({ cardNumber: number, cardCvv: cvv, cardHolderName: holderName });
}

async function answer<T>(call: Promise<T>): Promise<T> {
  const result = await call;
  answers.push(result);
  return result;
}

beforeAll(async () => {
  running = await startPayments();
  const clientId = randomUUID();
  const merchant = await answer(running.client.createMerchant(merchantRequest(clientId)));
  const source = cardSourceOf(running);

  const tokenCards = [
    newCard('411111', 16, 3),
    newCard('555555', 16, 3),
    newCard('371449', 15, 4),
    newCard('506726', 16, 3),
    newCard('606282', 16, 3),
    newCard('362272', 14, 3),
  ];
  const tokens: string[] = [];
  for (const [i, card] of tokenCards.entries()) {
    const token = await answer(running.client.createToken({ clientId, card }, i % 2 === 0 ? { idempotencyKey: randomUUID() } : {}));
    tokens.push(token.tokenId);
  }
  // Saved cards, read back every way the API shows them.
  const saved: payments.Card[] = [];
  for (const tokenId of tokens.slice(0, 3)) {
    saved.push(await answer(running.client.createCard({ clientId, tokenId, merchantId: merchant.id, cvvCheck: true }, { idempotencyKey: randomUUID() })));
  }
  for (const card of saved) await answer(running.client.getCard({ clientId, id: card.id }));
  await answer(running.client.listCards({ clientId, ids: [] }));
  await answer(running.client.assignCardToCustomer({ clientId, cardId: saved[0]!.id, customerId: randomUUID() }));

  // tokens[3] stays unused; tokens[4] pays a charge; an inline card and a saved card with a fresh CVV pay others.
  const inline = newCard('222100', 16, 3);
  const authorizationCvv = newCvv(3);
  cvvs.push(authorizationCvv);
  await withTransaction(running.pool, async (tx) => {
    await source.resolve(tx, clientId, { sourceType: 'token', tokenId: tokens[4]!, cardId: '', cardCvv: '' });
    await source.resolve(tx, clientId, { sourceType: 'card', card: inline, cardId: '', cardCvv: '', tokenId: '' });
    await source.resolve(tx, clientId, { sourceType: 'card', cardId: saved[1]!.id, cardCvv: authorizationCvv, tokenId: '' });
  });

  // Refused cards, one of them under an idempotency key whose failure is recorded.
  const refusedNumber = `${numbers[0]!.slice(0, 15)}${(Number(numbers[0]!.slice(-1)) + 1) % 10}`;
  numbers.push(refusedNumber);
  const refusedCvv = newCvv(3);
  cvvs.push(refusedCvv);
  for (const meta of [{ idempotencyKey: randomUUID() }, {}]) {
    const error = await failureOf(running.client.createToken({ clientId, card: cardInput({ cardNumber: refusedNumber, cardCvv: refusedCvv }) }, meta));
    answers.push({ message: error.message, details: error.details, key: error.key });
  }
  const declined = await failureOf(
    withTransaction(running.pool, (tx) =>
      source.resolve(tx, clientId, { sourceType: 'card', card: cardInput({ cardNumber: refusedNumber, cardCvv: refusedCvv }), cardId: '', cardCvv: '', tokenId: '' }),
    ),
  );
  answers.push({ message: declined.message, declinedCode: declined.declinedCode });
});

afterAll(async () => {
  await running.stop();
});

describe('card data at rest and on the wire', () => {
  it('finds what is stored in clear, so the sweep reaches the vault tables', async () => {
    const findings = await sweep({ numbers: [], cvvs: last4s.slice(0, 1), texts: [holderName] });
    const where = new Set(findings.map((f) => `${f.table}.${f.column}`));
    expect(where).toContain('card_tokens.holder_name');
    expect(where).toContain('cards.holder_name');
    expect(where).toContain('card_tokens.last4');
  });

  it('keeps no card number and no CVV in any column of any table', async () => {
    expect(numbers.length).toBeGreaterThanOrEqual(8);
    expect(await sweep({ numbers, cvvs, texts: [] })).toEqual([]);
  });

  it('answers no card number and no CVV in any response or error', () => {
    expect(answers.length).toBeGreaterThan(10);
    const text = JSON.stringify(answers);
    for (const number of numbers) expect(text).not.toContain(number);
    for (const cvv of cvvs) expect(text).not.toMatch(cvvPattern(cvv));
  });
});
