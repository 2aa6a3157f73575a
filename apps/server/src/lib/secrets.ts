import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';

/** A random token for an e-mailed link or a refresh cookie: 256 bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored as their SHA-256: a leaked table gives no usable links. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const newFamilyId = () => randomUUID();

/**
 * argon2id at OWASP's recommended minimum (Password Storage Cheat Sheet: m=19 MiB, t=2, p=1), stated here rather
 * than left to the library's defaults. Stored hashes carry their own parameters, so verifying older ones still works.
 */
// The library's algorithm is argon2id by default (its Algorithm is a const enum, which isolated modules cannot read).
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export type Argon2Options = { memoryCost: number; timeCost: number; parallelism: number };

/**
 * Whether argon2id parameters reach OWASP's minimum: its equivalent settings trade memory for passes (m=47 MiB t=1,
 * 19 MiB t=2, 12 MiB t=3, 9 MiB t=4, 7 MiB t=5), all at least 7 MiB × 5 passes of work.
 */
export const meetsOwaspMinimum = ({ memoryCost, timeCost }: Argon2Options) => memoryCost * timeCost >= 7_168 * 5;

/** Hashes directly, outside the login gate: for seeding and operator commands. The server hashes and verifies on its
 * own threads (lib/password-hasher). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}
