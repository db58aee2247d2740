import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, isKeyUsable, looksLikeApiKey, sameHash } from '../../src/domain/apiKeys';

describe('API keys', () => {
  it('carry a recognisable prefix by kind and environment and 256 random bits', () => {
    const secret = generateApiKey('secret', 'live');
    const publicKey = generateApiKey('public', 'sandbox');
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(publicKey).toMatch(/^pk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey('secret', 'live')).not.toBe(secret);
    expect(looksLikeApiKey(secret)).toBe(true);
    expect(looksLikeApiKey('sk_live_short')).toBe(false);
    expect(looksLikeApiKey(`xk_live_${secret.slice(8)}`)).toBe(false);
  });

  it('are hashed with SHA-256 and compared by hash', () => {
    const key = generateApiKey('secret', 'sandbox');
    const hash = hashApiKey(key);
    expect(hash.equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(sameHash(hash, hashApiKey(key))).toBe(true);
    expect(sameHash(hash, hashApiKey(`${key}x`))).toBe(false);
    expect(sameHash(hash, Buffer.alloc(16))).toBe(false);
  });

  it('stop being usable once revoked or expired', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    expect(isKeyUsable({ revokedAt: null, expiresAt: null }, now)).toBe(true);
    expect(isKeyUsable({ revokedAt: new Date('2024-12-31T00:00:00Z'), expiresAt: null }, now)).toBe(false);
    expect(isKeyUsable({ revokedAt: null, expiresAt: new Date('2025-01-01T00:00:01Z') }, now)).toBe(true);
    expect(isKeyUsable({ revokedAt: null, expiresAt: now }, now)).toBe(false);
  });
});
