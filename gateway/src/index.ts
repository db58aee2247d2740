export { createApp, type AppConfig, type AppDependencies } from './app';
export { createGrpcClients, type ClosableClients, type GatewayClients, type HealthProbe } from './clients';
export { loadGatewayConfig, type GatewayConfig } from './config';
export { listen, type RunningServer } from './server';
