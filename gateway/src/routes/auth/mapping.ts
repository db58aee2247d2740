import type { settings } from '@platform/contracts';
import { requiredTimestamp, timestampOrNull } from '../../http/json';
import type { ClientTokenJson } from './schemas';

export function toClientTokenJson(token: settings.ClientToken): ClientTokenJson {
  return {
    clientId: token.clientId,
    publicKey: token.publicKey,
    keyId: token.keyId,
    scope: token.scope,
    expires: token.expires,
    createdAt: requiredTimestamp(token.createdAt, 'createdAt'),
    expiresAt: timestampOrNull(token.expiresAt),
  };
}
