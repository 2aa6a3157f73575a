import { SignJWT, jwtVerify } from 'jose';
import { MAX_ROW_ID } from '@cr/contract/common';

export interface AccessClaims {
  userId: number;
  /** The refresh-token family (one login) the token was issued for: a revoked family's access tokens are refused. */
  sessionId: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createJwt(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp', 'iat', 'sub', 'sid'] });
        const sub = payload.sub ?? '';
        const userId = /^[1-9]\d{0,9}$/.test(sub) ? Number(sub) : NaN;
        if (!(userId <= MAX_ROW_ID)) return null;
        if (typeof payload.sid !== 'string' || !uuid.test(payload.sid)) return null;
        return { userId, sessionId: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
export type Jwt = ReturnType<typeof createJwt>;
