import { createHmac, randomBytes } from 'node:crypto';

let secret: Buffer = randomBytes(32);

/**
 * A keyed hash (HMAC-SHA256 with a secret drawn at start, base64url: 43 characters) of an identity
 * that must never be kept in clear: a platform key, a client's address. It means nothing outside
 * the processes that share the secret (this one, or with Redis every worker and replica: see
 * upstream/hash-secret.ts), so it may key counters without the identity itself ever being stored.
 */
export function keyedHash(value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

/** Keys every later keyedHash with `shared` (32 bytes), the secret of every process of the group. */
export function useKeyedHashSecret(shared: Buffer): void {
  if (shared.length !== 32) throw new Error('a keyed-hash secret is 32 bytes');
  secret = shared;
}
