/**
 * The sandbox rules Pagar.me publishes for its test keys (docs.pagar.me, "O que é um simulador?", the gateway
 * simulators), which the loopback simulator follows.
 */

/** What a card's authorization does in the sandbox. */
export type PagarmeCardScenario = 'success' | 'failure' | 'processing_success' | 'processing_failure';

/**
 * "Simulador de Cartão de Crédito" (and "Simulador de Cartão de Débito", which lists the same numbers):
 * - 4000000000000010: the success card, every operation succeeds (captured at once: order and charge "paid",
 *   transaction "captured");
 * - 4000000000000028: the failure card, every transaction comes back "not authorized";
 * - 4000000000000036: Processing -> Success, the transaction gets the error status first and the acquirer
 *   confirms it later (sent with capture, the order is "Pendente", its charge "Processando" and the transaction
 *   "Com erro" until then);
 * - 4000000000000044: Processing -> Failure, the transaction gets the error status first and is later not found
 *   at the acquirer, so it fails.
 * Any other number is refused as the failure card is.
 */
export const PAGARME_TEST_CARDS: Readonly<Record<string, PagarmeCardScenario>> = {
  '4000000000000010': 'success',
  '4000000000000028': 'failure',
  '4000000000000036': 'processing_success',
  '4000000000000044': 'processing_failure',
};

export function cardScenarioOf(number: string): PagarmeCardScenario {
  return PAGARME_TEST_CARDS[number] ?? 'failure';
}

/**
 * What a refused card answers. Since 2026-08-28 the v5 API returns the card brand's ABECS code and message in
 * `acquirer_return_code` / `acquirer_message` ("Códigos de retorno padrão ABECS"): 05 is ABECS's generic refusal.
 */
export const PAGARME_REFUSAL = { code: '05', message: 'Transação não autorizada' } as const;
/** The approval, as a live charge shows it (`acquirer_return_code` "0000", "Transação aprovada com sucesso"). */
export const PAGARME_APPROVAL = { code: '0000', message: 'Transação aprovada com sucesso' } as const;

/**
 * "Simulador de PIX": up to R$ 500,00 the Pix is created pending and paid automatically seconds later; above,
 * it is created failed. Amounts in centavos.
 */
export const PAGARME_PIX_SUCCESS_LIMIT = 50_000;

/** What a boleto's conciliation does in the sandbox. */
export type PagarmeBoletoScenario = 'paid' | 'underpaid' | 'overpaid' | 'unconciliated';

/**
 * "Simulador de Boleto Bancário" (gateway simulator), by the buyer's CEP (`customer.address.zip_code`):
 * 01046010 conciliated as paid less ("pagamento a menor"), 57400000 as paid more ("pagamento a maior"),
 * 70070300 never conciliated, any other CEP conciliated with the whole amount.
 */
export const PAGARME_BOLETO_CEPS: Readonly<Record<string, PagarmeBoletoScenario>> = {
  '01046010': 'underpaid',
  '57400000': 'overpaid',
  '70070300': 'unconciliated',
};

export function boletoScenarioOf(zipCode: string | undefined): PagarmeBoletoScenario {
  return (zipCode && PAGARME_BOLETO_CEPS[zipCode.replace(/\D/g, '')]) || 'paid';
}

/** How much a boleto paid less or more pays (the manual names the cases, not the amounts): one real. */
export const PAGARME_BOLETO_DIFFERENCE = 100;

/** What the API answers a request without valid Basic credentials. */
export const PAGARME_UNAUTHORIZED = { message: 'Authorization has been denied for this request.' } as const;
