/**
 * The providers' simulators. Each one runs on loopback, holds state, checks credentials as its provider does
 * and answers in its provider's published shapes; none of them shares code with the platform's connectors.
 */
export * from './http';
export * from './cielo';
export * from './rede';
export * from './pix';
export * from './pagarme';
export * from './mercadopago';
export * from './stripe';
export * from './adyen';
// `npm run new-connector` adds a simulator's export above this line.
