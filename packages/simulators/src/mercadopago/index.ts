export { startMercadoPagoSimulator } from './simulator';
export type {
  MercadoPagoAccount,
  MercadoPagoDelivery,
  MercadoPagoNotification,
  MercadoPagoPaymentState,
  MercadoPagoRefundState,
  MercadoPagoSimulator,
  MercadoPagoSimulatorOptions,
} from './simulator';
export { cardholderOutcome, MERCADOPAGO_CAPTURE_DAYS, MERCADOPAGO_CARD_METHODS, MERCADOPAGO_CARDHOLDER_OUTCOMES, MERCADOPAGO_PIX_EXPIRATION, MERCADOPAGO_TEST_CARDS, MERCADOPAGO_TEST_CPF } from './rules';
export type { CardholderOutcome } from './rules';
