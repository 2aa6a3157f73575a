import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie's name; it goes to the login route only (its path). */
export const DEVICE_COOKIE = 'cr_device';

/**
 * Device cookies, as OWASP's authentication guidance describes them ("Slow down online guessing attacks with device
 * cookies", issue 45 item 15): a successful login hands the browser a cookie that binds the login name (the
 * normalised Catalyst ID) to a random nonce, signed with an HMAC-SHA256 under a key derived from the server's secret
 * (JWT_SECRET, or the one kept in DATA_DIR). A later login for the same name carrying it comes from a device that has
 * logged in before, and is exempt from its address's lock-out; it still counts its own failures (by nonce).
 *
 * `<base64url("<login>\n<nonce>\n<expiry, unix seconds>")>.<base64url(signature)>`; nothing is stored.
 */
export function createDeviceCookies(secret: string, ttlDays: number) {
  // A key of its own, so that a signature made here can never stand for anything else signed with the secret.
  const key = createHmac('sha256', secret).update('community-review:device-cookie:v1').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();
  const ttlSeconds = ttlDays * 24 * 60 * 60;

  /** The login name and nonce of a cookie this server signed and that has not expired; null otherwise. */
  const read = (value: string | undefined, now = Date.now()): { login: string; nonce: string } | null => {
    if (!value || value.length > 1024) return null;
    const parts = value.split('.');
    if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) return null;
    const payload = Buffer.from(parts[0]!, 'base64url').toString('utf8');
    const given = Buffer.from(parts[1]!, 'base64url');
    const expected = sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const [login, nonce, expiry, ...rest] = payload.split('\n');
    if (!login || !nonce || !expiry || rest.length > 0 || !/^\d+$/.test(expiry)) return null;
    if (Number(expiry) * 1000 <= now) return null;
    return { login, nonce };
  };

  return {
    ttlSeconds,

    /** A new cookie for a login name that has just logged in on this device. */
    issue(login: string, now = Date.now()): string {
      const payload = `${login}\n${randomBytes(16).toString('base64url')}\n${Math.floor(now / 1000) + ttlSeconds}`;
      return `${Buffer.from(payload).toString('base64url')}.${sign(payload).toString('base64url')}`;
    },

    read,

    /** The device (its nonce) when the cookie is valid for this login name; null for none, a forged, an expired or
     *  another login name's cookie. */
    deviceFor(value: string | undefined, login: string): string | null {
      const device = read(value);
      return device && device.login === login ? device.nonce : null;
    },
  };
}
export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
