import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A short random id (base32, 50 bits): the only identity of a reviewer the public sees. */
export function newAnonymousId(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (byte) => BASE32[byte & 31]).join('');
}
