import { randomUUID } from 'node:crypto';
import { ManualClock } from '@platform/testkit';
import { legalEntity, naturalPerson } from '../fixtures';
import { failureOf, startSellersAndReviews, type RunningSellersAndReviews } from '../support';

/** The service's clock: the rules about the past and the future read it. */
const clock = new ManualClock(Date.parse('2026-05-01T12:00:00.000Z'));
let running: RunningSellersAndReviews;

beforeAll(async () => {
  running = await startSellersAndReviews({ clock });
});

afterAll(async () => {
  await running.stop();
});

const fieldsOf = (error: { details?: Array<{ field: string }> }) => (error.details ?? []).map((d) => d.field);

describe('dates and ranges the gateway refuses, refused too when sellers is called directly', () => {
  it('refuses a seller whose birthdate is no date or not in the past, whose opening date is ahead, or whose transfer day is negative', async () => {
    const clientId = randomUUID();
    const merchantId = running.merchants.add(clientId);
    const withOwner = (birthdate: string) => {
      const body = naturalPerson(merchantId);
      return { ...body, owner: { ...(body.owner as object), birthdate } };
    };
    for (const birthdate of ['0000-00-00', '2999-01-01', '2026-05-01', '1899-12-31']) {
      const error = await failureOf(running.client.createSeller({ clientId, seller: withOwner(birthdate) }));
      expect(error.kind).toBe('validation');
      expect(fieldsOf(error)).toEqual(['owner.birthdate']);
    }
    const opened = legalEntity(merchantId);
    const error = await failureOf(running.client.createSeller({ clientId, seller: { ...opened, business: { ...(opened.business as object), openingDate: '2026-05-02' } } }));
    expect(fieldsOf(error)).toEqual(['business.openingDate']);
    const negative = await failureOf(running.client.createSeller({ clientId, seller: naturalPerson(merchantId, { transferPolicy: { transferDay: -1 } }) }));
    expect(fieldsOf(negative)).toEqual(['transferPolicy.transferDay']);

    // Nothing of those was stored; a seller in range is, and a PATCH cannot move its birthdate ahead either.
    const { rows } = await running.pool.query('SELECT count(*)::int AS n FROM sellers WHERE client_id = $1', [clientId]);
    expect(rows[0].n).toBe(0);
    const seller = await running.client.createSeller({ clientId, seller: withOwner('2026-04-30') });
    const patch = await failureOf(running.client.updateSeller({ clientId, id: seller.id, changes: { owner: { birthdate: '2999-01-01' } } }));
    expect(fieldsOf(patch)).toEqual(['owner.birthdate']);
  });

  it('refuses a registration review that would open expired by the clock, or whose instants are out of range', async () => {
    const clientId = randomUUID();
    const seller = await running.client.createSeller({ clientId, seller: naturalPerson(running.merchants.add(clientId)) });
    const open = (deadlineAt: Date, expiresAt?: Date) =>
      running.client.openRegistrationReview({ clientId, sellerId: seller.id, documentType: '', documentNumber: '', reviewType: 'acp', deadlineAt, expiresAt, rawGiven: false, raw: [] });
    for (const deadlineAt of [new Date('2026-04-20T00:00:00Z'), new Date('1900-01-01T00:00:00Z'), new Date('0001-01-01T00:00:00Z')]) {
      const error = await failureOf(open(deadlineAt));
      expect(error.kind).toBe('validation');
      expect(fieldsOf(error)).toEqual(['deadlineAt']);
    }
    expect(fieldsOf(await failureOf(open(new Date('2026-05-08T00:00:00Z'), new Date('2999-01-01T00:00:00Z'))))).toEqual(['expiresAt']);
    expect(fieldsOf(await failureOf(open(new Date('2026-04-20T00:00:00Z'), new Date(clock.now().getTime()))))).toEqual(['expiresAt']);
    const { rows } = await running.pool.query('SELECT count(*)::int AS n FROM registration_reviews WHERE client_id = $1', [clientId]);
    expect(rows[0].n).toBe(0);
    expect((await open(new Date('2026-05-08T00:00:00Z'))).status).toBe('pending');
  });
});
