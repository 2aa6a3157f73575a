import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createJwt, VERIFIED_TOKENS_KEPT } from '../src/lib/jwt';

/** Access tokens (issue 13 item 10, issue 16): a verified token is kept until its exp, checked on every use. */
describe('access token verification', () => {
  const secret = 'a-test-secret-of-at-least-32-characters!';
  const sessionId = '0d3a1c7e-1111-4222-8333-944455556666';

  it('verifies a token, and still refuses it once its exp has passed although it verified before', async () => {
    let time = Date.now();
    const jwt = createJwt(secret, 60, () => time);
    const token = await jwt.sign({ userId: 7, sessionId });
    expect(await jwt.verify(token)).toEqual({ userId: 7, sessionId });
    expect(await jwt.verify(token)).toEqual({ userId: 7, sessionId }); // kept
    time += 61_000;
    expect(await jwt.verify(token)).toBeNull();
    expect(await jwt.verify(token)).toBeNull();
  });

  it('never takes a token signed with another key, nor one whose signature was altered', async () => {
    const jwt = createJwt(secret, 60);
    const other = createJwt('another-secret-of-at-least-32-characters', 60);
    const token = await jwt.sign({ userId: 7, sessionId });
    expect(await jwt.verify(token)).not.toBeNull();
    expect(await other.verify(token)).toBeNull();
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await jwt.verify(forged)).toBeNull();
    // A forged payload with the original signature: another token text, verified afresh and refused.
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const raised = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    expect(await jwt.verify(`${header}.${raised}.${token.split('.')[2]}`)).toBeNull();
  });

  it('keeps at most VERIFIED_TOKENS_KEPT tokens, the oldest going first, and verifies a dropped one again', async () => {
    const jwt = createJwt(secret, 600);
    const key = new TextEncoder().encode(secret);
    const first = await jwt.sign({ userId: 1, sessionId });
    expect(await jwt.verify(first)).not.toBeNull();
    const iat = Math.floor(Date.now() / 1000);
    for (let i = 0; i < VERIFIED_TOKENS_KEPT; i += 1) {
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(i + 2))
        .setIssuedAt(iat)
        .setExpirationTime(iat + 600)
        .sign(key);
      await jwt.verify(token);
    }
    // The first token was dropped to make room; it is verified again (and still valid).
    expect(await jwt.verify(first)).toEqual({ userId: 1, sessionId });
  });
});
