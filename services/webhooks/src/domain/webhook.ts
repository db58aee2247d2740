import { WEBHOOK_LIMITS } from '@platform/api-model';
import { errors, type FieldViolation } from '@platform/kit';
import { z } from 'zod';
import { blockedReason, ipLiteralOf } from './addresses';
import { isPublicEventName } from './publicEvents';

export interface Webhook {
  id: string;
  clientId: string;
  /** A public event name or `*`. */
  event: string;
  endpoint: string;
  version: number;
  active: boolean;
  /** Ed25519, SPKI in PEM. */
  publicKey: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a registration may set; validated and normalised. */
export interface WebhookFields {
  event: string;
  endpoint: string;
  version: number;
  active: boolean;
}

export const DEFAULT_VERSION = 1;
const MAX_ENDPOINT_LENGTH = WEBHOOK_LIMITS.endpointMaxLength;

/** Why a URL host written as an IP literal or `localhost` is not public ("loopback", ...), or null. */
function privateHostReason(hostname: string): string | null {
  const literal = ipLiteralOf(hostname);
  return literal ? blockedReason(literal) : /(^|\.)localhost\.?$/i.test(hostname) ? 'loopback' : null;
}

/**
 * Whether an endpoint as given names a private host outright (an IP literal or `localhost`), so that registering it
 * needs the client to be allowed private targets. A name is resolved and checked at each delivery instead.
 */
export function namesPrivateHost(raw: string | undefined): boolean {
  if (raw === undefined) return false;
  try {
    return privateHostReason(new URL(raw.trim()).hostname) !== null;
  } catch {
    return false;
  }
}

/**
 * An http(s) URL without credentials, in the normal form the uniqueness is checked on. A host that is a private
 * IP literal is refused here; names are resolved and checked before each delivery.
 */
export function normaliseEndpoint(raw: string, allowPrivateTargets: boolean): { endpoint: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: 'must be an absolute http or https URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'must be an http or https URL' };
  if (url.username !== '' || url.password !== '') return { problem: 'must not carry credentials' };
  if (url.href.length > MAX_ENDPOINT_LENGTH) return { problem: `must be at most ${MAX_ENDPOINT_LENGTH} characters` };
  if (!allowPrivateTargets) {
    const reason = privateHostReason(url.hostname);
    if (reason) return { problem: `must reach a public address (${url.hostname} is ${reason})` };
  }
  url.hash = '';
  return { endpoint: url.href };
}

const eventSchema = z
  .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .refine(isPublicEventName, 'must be "*" or an event of the catalogue (docs/events.md)');
const versionSchema = z
  .number({ error: 'must be a number' })
  .refine((v) => Number.isFinite(v) && v > 0 && v < 1000, 'must be a positive number such as 1.1');

function check(violations: FieldViolation[], field: string, schema: z.ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  if (!result.success) violations.push({ field, message: result.error.issues[0]?.message ?? 'is invalid' });
}

function endpointOf(violations: FieldViolation[], raw: string | undefined, allowPrivateTargets: boolean): string {
  if (raw === undefined || raw.trim() === '') {
    violations.push({ field: 'endpoint', message: 'is required' });
    return '';
  }
  const normal = normaliseEndpoint(raw, allowPrivateTargets);
  if ('problem' in normal) {
    violations.push({ field: 'endpoint', message: normal.problem });
    return '';
  }
  return normal.endpoint;
}

export interface NewWebhookInput {
  event: string;
  endpoint: string;
  version?: number;
  status?: boolean;
}

export function parseNewWebhook(input: NewWebhookInput, options: { allowPrivateTargets: boolean }): WebhookFields {
  const violations: FieldViolation[] = [];
  if (input.event === '') violations.push({ field: 'event', message: 'is required' });
  else check(violations, 'event', eventSchema, input.event);
  const endpoint = endpointOf(violations, input.endpoint, options.allowPrivateTargets);
  const version = input.version ?? DEFAULT_VERSION;
  check(violations, 'version', versionSchema, version);
  if (violations.length > 0) throw errors.validation('Invalid webhook', violations);
  return { event: input.event.trim(), endpoint, version, active: input.status ?? true };
}

export interface WebhookChangesInput {
  event?: string;
  endpoint?: string;
  version?: number;
  status?: boolean;
}

export function parseWebhookChanges(input: WebhookChangesInput, options: { allowPrivateTargets: boolean }): Partial<WebhookFields> {
  const violations: FieldViolation[] = [];
  const changes: Partial<WebhookFields> = {};
  if (input.event !== undefined) {
    check(violations, 'event', eventSchema, input.event);
    changes.event = input.event.trim();
  }
  if (input.endpoint !== undefined) changes.endpoint = endpointOf(violations, input.endpoint, options.allowPrivateTargets);
  if (input.version !== undefined) {
    check(violations, 'version', versionSchema, input.version);
    changes.version = input.version;
  }
  if (input.status !== undefined) changes.active = input.status;
  if (violations.length > 0) throw errors.validation('Invalid webhook', violations);
  if (Object.keys(changes).length === 0) throw errors.validation('Nothing to update: give at least one of event, endpoint, version or status');
  return changes;
}

export function applyChanges(webhook: Webhook, changes: Partial<WebhookFields>, at: Date): Webhook {
  return { ...webhook, ...changes, updatedAt: at };
}
