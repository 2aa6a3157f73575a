import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNotificationKind, type NotificationKind } from '@cr/contract/notifications';

/**
 * The one-click unsubscribe token (RFC 8058): the user id and the notification kind, signed with an HMAC-SHA256 under a
 * key derived from the server's secret (JWT_SECRET, or the one kept in DATA_DIR), so no login is needed and nothing is
 * stored. `<base64url("<user id>.<kind>")>.<base64url(signature)>`. It does not expire: an old mail's link keeps
 * working, and using it again only repeats the same unsubscribe.
 */
export function createUnsubscribeTokens(secret: string) {
  // A key of its own, so that a signature made here can never stand for anything else signed with the secret.
  const key = createHmac('sha256', secret).update('community-review:unsubscribe:v1').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();

  return {
    create(userId: number, kind: NotificationKind): string {
      const payload = `${userId}.${kind}`;
      return `${Buffer.from(payload).toString('base64url')}.${sign(payload).toString('base64url')}`;
    },

    /** The user and kind a token names, or null when it is not one this server signed. */
    verify(token: string): { userId: number; kind: NotificationKind } | null {
      const parts = token.split('.');
      if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) return null;
      const payload = Buffer.from(parts[0]!, 'base64url').toString('utf8');
      const given = Buffer.from(parts[1]!, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const match = /^([1-9][0-9]{0,9})\.([a-z0-9_]+)$/.exec(payload);
      if (!match || !isNotificationKind(match[2]!)) return null;
      const userId = Number(match[1]);
      return userId <= 2_147_483_647 ? { userId, kind: match[2] } : null;
    },
  };
}
export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
