import { SignJWT, jwtVerify } from 'jose';

export interface AccessClaims {
  userId: number;
}

export function createJwt(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    /** Returns the claims of a valid, unexpired token, else null. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        return Number.isInteger(userId) && userId > 0 ? { userId } : null;
      } catch {
        return null;
      }
    },
  };
}
export type Jwt = ReturnType<typeof createJwt>;
