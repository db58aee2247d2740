export * from './rules';
export { startPagarmeSimulator } from './simulator';
export type { PagarmeAccount, PagarmeHook, PagarmeSimulator, PagarmeSimulatorOptions } from './simulator';
