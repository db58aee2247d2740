export { startCieloSimulator } from './simulator';
export type { CieloMerchant, CieloNotification, CieloSimulator, CieloSimulatorOptions, SaleState as CieloSale } from './simulator';
export { brCodeValid, crc16 as brCodeCrc16, dynamicPixCode, parseBrCode } from './brcode';
export { simuladoOutcome } from './simulado';
