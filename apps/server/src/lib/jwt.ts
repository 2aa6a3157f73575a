import { SignJWT, jwtVerify } from 'jose';
import { MAX_ROW_ID } from '@cr/contract/common';

export interface AccessClaims {
  userId: number;
  /** The refresh-token family (one login) the token was issued for: a revoked family's access tokens are refused. */
  sessionId: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tokens whose signature was verified, kept at most (the oldest goes first). */
export const VERIFIED_TOKENS_KEPT = 10_000;

export function createJwt(secret: string, ttlSeconds: number, now: () => number = () => Date.now()) {
  const key = new TextEncoder().encode(secret);
  // A client sends the same access token with every request until it expires; checking its HMAC again each time
  // (WebCrypto, off the event loop and back: ~130 µs) was a large share of a signed-in request's cost. A token that
  // verified once, with this key, verifies the same until its `exp`, which is checked on every use. Only valid tokens
  // are kept, and the session behind one is still checked against the database on every request (plugins/auth).
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  return {
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    /**
     * Returns the claims of a valid, unexpired token, else null. `exp`, `iat`, `sub` (a user id in the id range) and
     * `sid` (a session family id) are required.
     */
    async verify(token: string): Promise<AccessClaims | null> {
      const kept = verified.get(token);
      if (kept) {
        if (now() < kept.expiresAt) return kept.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'iat', 'sub', 'sid'],
          currentDate: new Date(now()),
        });
        const sub = payload.sub ?? '';
        const userId = /^[1-9]\d{0,9}$/.test(sub) ? Number(sub) : NaN;
        if (!(userId <= MAX_ROW_ID)) return null;
        if (typeof payload.sid !== 'string' || !uuid.test(payload.sid)) return null;
        const claims = { userId, sessionId: payload.sid };
        if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, expiresAt: payload.exp! * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type Jwt = ReturnType<typeof createJwt>;
