import { REDE_AUTHORIZATION_RETURNS } from '@platform/simulators';
import { DECLINED_CODES, type DeclinedCode } from '../../../src/modules/charges/domain/charge';
import { TECHNICAL_DECLINE_CODES } from '../../../src/modules/charges/domain/routing';
import { REDE_SUCCESS_CODES, redeDeclines } from '../../../src/modules/connectors/rede/declineTable';
import { redeStatuses } from '../../../src/modules/connectors/rede/statusTable';
import { stateOf, toQueryResult, type RedeQueryAnswer } from '../../../src/modules/connectors/rede/transformers';
import { DECLINE_DECISIONS, declineOf } from '../../../src/modules/connectors/kit/tables';

/** Every return code of e.Rede's manual the table maps, by the declinedCode it becomes and the decision it leads to. */
const EXPECTED: Record<string, readonly string[]> = {
  'card_not_supported (retry_other_provider)': ['82', '114'],
  'expired_card (do_not_retry)': ['79', '86', '112'],
  'fraud_suspect (do_not_retry)': ['113'],
  'generic (retry_other_provider)': ['58', '72', '83', '84', '101', '116', '122', '124', '175'],
  'insufficient_funds (retry_later)': ['80', '111'],
  'invalid_amount (do_not_retry)': ['49', '70', '71', '73', '108', '357', '358'],
  'invalid_cvv (do_not_retry)': ['15', '16', '119', '172'],
  'invalid_data (do_not_retry)': [
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '17', '18', '19', '20', '21', '22', '23', '27', '28', '29',
    '30', '31', '32', '33', '34', '35', '39', '40', '41', '42', '43', '44', '45', '47', '48', '55', '59', '60', '61', '65', '66', '67',
    '68', '75', '76', '78', '85', '87', '89', '97', '98', '117', '153', '154', '155', '156', '157', '158', '159', '160', '161', '167',
    '169', '176', '353', '362', '363', '369', '4030',
  ],
  'invalid_installment (do_not_retry)': ['46', '50', '54', '151'],
  'invalid_merchant (do_not_retry)': ['24', '25', '26'],
  'invalid_merchant (retry_other_provider)': ['57', '88', '102', '898', '3301'],
  'invalid_number (do_not_retry)': ['36', '37', '38', '109'],
  'issuer_not_available (retry_other_provider)': ['106'],
  'not_permitted (do_not_retry)': ['115', '123', '351'],
  'restricted_card (do_not_retry)': ['105', '118'],
  'service_not_allowed (do_not_retry)': ['51', '63'],
  'transaction_not_allowed (do_not_retry)': ['53', '69', '110', '170', '171', '173', '354', '355', '365', '373', '374'],
  'try_again (retry_other_provider)': ['56', '64', '74', '103', '104', '107', '121', '150', '368', '370', '371', '899'],
};

describe('e.Rede decline table', () => {
  it('maps exactly the listed codes, each to the listed declinedCode', () => {
    const actual: Record<string, string[]> = {};
    for (const [code, entry] of Object.entries(redeDeclines)) {
      const group = `${entry.declinedCode} (${entry.decision})`;
      (actual[group] ??= []).push(code);
    }
    const sorted = (groups: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.entries(groups).map(([group, codes]) => [group, [...codes].sort((a, b) => Number(a) - Number(b))]));
    expect(sorted(actual)).toEqual(sorted(EXPECTED));
  });

  it('decides every code: technical ones retry on another provider, insufficient funds later, and uses only our declined codes', () => {
    for (const [code, entry] of Object.entries(redeDeclines)) {
      expect([code, (DECLINED_CODES as readonly string[]).includes(entry.declinedCode)]).toEqual([code, true]);
      expect([code, DECLINE_DECISIONS.includes(entry.decision)]).toEqual([code, true]);
      if (TECHNICAL_DECLINE_CODES.includes(entry.declinedCode)) expect([code, entry.decision]).toEqual([code, 'retry_other_provider']);
      if (entry.declinedCode === 'insufficient_funds') expect([code, entry.decision]).not.toEqual([code, 'retry_other_provider']);
      expect(entry.meaning.length).toBeGreaterThan(0);
    }
  });

  it('covers every authorization return of the manual, and never declines a success code', () => {
    for (const code of Object.keys(REDE_AUTHORIZATION_RETURNS)) {
      if (code === '00') continue;
      expect([code, redeDeclines[code]?.meaning]).toEqual([code, REDE_AUTHORIZATION_RETURNS[code]]);
    }
    for (const code of REDE_SUCCESS_CODES) expect(redeDeclines[code]).toBeUndefined();
    expect(declineOf(redeDeclines, '999')).toMatchObject({ declinedCode: 'generic' as DeclinedCode, decision: 'do_not_retry' });
  });
});

describe('e.Rede status table', () => {
  const approved = (extra: Partial<RedeQueryAnswer> = {}): RedeQueryAnswer => ({ authorization: { status: 'Approved', tid: '1', amount: 1000 }, ...extra });

  it('reads each transaction state to its charge status', () => {
    expect(redeStatuses).toEqual({
      Approved: 'pre_authorized',
      'Approved/captured': 'authorized',
      'Approved/refund Processing': 'refund_pending',
      Denied: 'failed',
      Canceled: 'voided',
      Pending: 'pending',
    });
    expect(stateOf(approved())).toBe('Approved');
    expect(stateOf(approved({ capture: { amount: 1000 } }))).toBe('Approved/captured');
    expect(stateOf(approved({ capture: { amount: 1000 }, refunds: [{ amount: 100, status: 'Processing' }] }))).toBe('Approved/refund Processing');
    expect(stateOf({ authorization: { status: 'Denied' } })).toBe('Denied');
  });

  it('counts only cancellations that are done as refunded, and gives a denied one its declinedCode', () => {
    expect(toQueryResult(approved({ capture: { amount: 1000 }, refunds: [{ amount: 300, status: 'Done' }, { amount: 200, status: 'Denied' }] }))).toEqual({
      found: true,
      status: 'authorized',
      providerStatus: 'Approved/captured',
      capturedAmount: 1000,
      refundedAmount: 300,
    });
    expect(toQueryResult({ authorization: { status: 'Denied', returnCode: '119' } })).toEqual({
      found: true,
      status: 'failed',
      providerStatus: 'Denied',
      declinedCode: 'invalid_cvv',
    });
    expect(toQueryResult({ authorization: { status: 'Unknown' } })).toEqual({ found: true, providerStatus: 'Unknown' });
  });
});
