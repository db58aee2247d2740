/**
 * "Simulado", Cielo's sandbox card rules (manual "API E-commerce Cielo", section "Sandbox and Tools" >
 * "Credit card in sandbox"; the same table as Braspag Pagador's "Test Cards (Simulado)"): the last digit of
 * the card number decides the answer.
 *
 * | Final digit | Transaction status   | Return code | Return message                   |
 * | 0, 1, 4     | Authorized           | 4/6         | Operation performed successfully |
 * | 2           | Not Authorized       | 05          | Not Authorized                   |
 * | 3           | Not Authorized       | 57          | Expired Card                     |
 * | 5           | Not Authorized       | 78          | Blocked Card                     |
 * | 6           | Not Authorized       | 99          | Time Out                         |
 * | 7           | Not Authorized       | 77          | Canceled Card                    |
 * | 8           | Not Authorized       | 70          | Problems with the Credit Card    |
 * | 9           | Random Authorization | 4 to 99     | Operation Successful / Time Out  |
 *
 * "4/6": the sandbox answers 4 for an authorization and 6 for an authorization captured at once (the manual's
 * response examples of a captured sale show ReturnCode "6").
 */

export type SimuladoOutcome = { authorized: true } | { authorized: false; returnCode: string; returnMessage: string };

const DECLINES: Readonly<Record<string, { returnCode: string; returnMessage: string }>> = {
  '2': { returnCode: '05', returnMessage: 'Not Authorized' },
  '3': { returnCode: '57', returnMessage: 'Expired Card' },
  '5': { returnCode: '78', returnMessage: 'Blocked Card' },
  '6': { returnCode: '99', returnMessage: 'Time Out' },
  '7': { returnCode: '77', returnMessage: 'Canceled Card' },
  '8': { returnCode: '70', returnMessage: 'Problems with the Credit Card' },
};

/** `random` is the coin of the cards ending 9: below 0.5 they are authorized, otherwise they time out (99). */
export function simuladoOutcome(cardNumber: string, random: () => number): SimuladoOutcome {
  const last = cardNumber.at(-1) ?? '';
  if (last === '0' || last === '1' || last === '4') return { authorized: true };
  if (last === '9') return random() < 0.5 ? { authorized: true } : { authorized: false, returnCode: '99', returnMessage: 'Time Out' };
  return { authorized: false, ...(DECLINES[last] ?? DECLINES['2']!) };
}

export const AUTHORIZED_RETURN = {
  /** Authorized, waiting for a capture. */
  authorized: { returnCode: '4', returnMessage: 'Operation Successful' },
  /** Authorized and captured in the same request. */
  captured: { returnCode: '6', returnMessage: 'Operation Successful' },
} as const;
