import { SERVICES } from './services';
import type { ServiceEntry } from './types';

export { SERVICES } from './services';
export type { ExtraEnv, SecretSpec, ServiceEntry } from './types';

export type Service = (typeof SERVICES)[number];
/** A service's folder/process name: 'settings' | 'customers' | ... */
export type ServiceName = Service['name'];
/** A service's property in the gateway's clients. */
export type ClientName = Service['client'];
/** The fully qualified gRPC service names. */
export type GrpcServiceName = Service['grpcService'];
/** Every secret variable of every service (CARD_ENCRYPTION_KEYS, ...). */
export type SecretName = Service['secrets'][number]['env'];
/** The key scopes of every service's routes. */
export type Scope = Service['scopes'][number];

/** The entry whose `client` is K. */
export type ServiceByClient<K extends ClientName> = Extract<Service, { client: K }>;

export function serviceByName(name: string): ServiceEntry | undefined {
  return (SERVICES as readonly ServiceEntry[]).find((s) => s.name === name);
}

/** Every secret of every service, once each. */
export const SECRETS: ReadonlyArray<Service['secrets'][number]> = SERVICES.flatMap((s) => s.secrets as ReadonlyArray<Service['secrets'][number]>);

/** `sellers-and-reviews` -> `sellersAndReviews`. */
export function camelCase(name: string): string {
  return name.replace(/[-_]+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `sellers-and-reviews` -> `SELLERS_AND_REVIEWS_GRPC_URL`. */
export function addressEnvOf(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_GRPC_URL`;
}

/** Checks the list for what the type cannot: unique names, names and variables in their expected form. */
export function checkCatalog(services: readonly ServiceEntry[] = SERVICES): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const unique = (kind: string, value: string, owner: string) => {
    const key = `${kind}:${value}`;
    const first = seen.get(key);
    if (first) problems.push(`${owner}: ${kind} ${value} is already used by ${first}`);
    else seen.set(key, owner);
  };
  for (const s of services) {
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(s.name) || ['gateway', 'health', 'config'].includes(s.name)) problems.push(`${s.name}: a service name is a lowercase DNS label other than gateway, health and config`);
    if (s.client !== camelCase(s.name)) problems.push(`${s.name}: client must be ${camelCase(s.name)}`);
    if (s.addressEnv !== addressEnvOf(s.name)) problems.push(`${s.name}: addressEnv must be ${addressEnvOf(s.name)}`);
    if (!/^[a-z][a-z0-9_]*$/.test(s.database)) problems.push(`${s.name}: database ${s.database} is not a plain PostgreSQL identifier`);
    if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*\.[A-Z][A-Za-z0-9]*$/.test(s.grpcService)) problems.push(`${s.name}: grpcService ${s.grpcService} is not <package>.<Service>`);
    unique('name', s.name, s.name);
    unique('database', s.database, s.name);
    unique('grpcService', s.grpcService, s.name);
    for (const scope of s.scopes) unique('scope', scope, s.name);
    for (const secret of s.secrets) unique('secret', secret.env, s.name);
  }
  return problems;
}
