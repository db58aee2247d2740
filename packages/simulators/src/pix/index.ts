export { startPixSimulator } from './simulator';
export type { PixExchange, PixSimulatorAccount, PixSimulatorOptions, PixSimulatorProfile, RefundOutcome, RunningPixSimulator, WebhookDelivery } from './simulator';
export { crc16, dynamicBrCode } from './brcode';
export { testTls } from './tls';
export type { TestTls } from './tls';
