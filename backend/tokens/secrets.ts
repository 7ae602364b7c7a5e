import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_PREFIX } from '../../contract/token-rules.ts';

/** A new secret: `pb_` and 32 random bytes as base64url (43 characters). */
export function newSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What is stored and looked up: sha256 of the secret, hex. A secret is 256 random bits, so a fast
 * hash is enough (nothing to brute-force), and a lookup by hash compares no secret byte by byte.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
