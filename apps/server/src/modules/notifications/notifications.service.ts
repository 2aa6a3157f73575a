import {
  NOTIFICATION_KINDS,
  unsubscribeMessages,
  type NotificationKind,
  type NotificationPreferences,
  type UnsubscribeState,
} from '@cr/contract/notifications';
import { mergeReviewsConfig, type ReviewsConfigValue } from '@cr/contract/events';
import type { Mailer } from '../../adapters/mail';
import { registerMailTemplate } from '../mail/mail-queue.service';
import type { Db, DbOrTx } from '../../db/client';
import { findConfig } from '../../db/config-records';
import { badRequest } from '../../errors';
import { requireEvent } from '../events/events.service';
import * as repo from './notifications.repository';
import { mailLanguageOf } from '../../mail-strings/index';
import { renderNotification, type NotificationLinks } from './templates';
import { createUnsubscribeTokens } from './unsubscribe-token';

/** The path of the one-click unsubscribe under the API prefix (RFC 8058: mail clients POST to it). */
export const UNSUBSCRIBE_PATH = '/notifications/unsubscribe';

/**
 * Notifications (issue 27): queued in the transaction of the change that causes them (transactional outbox), only to
 * people who can act on them and have not turned their kind off; each carries a signed one-click unsubscribe link.
 * Bulk ones are rows with parameters, rendered by the mail worker through the templates registered here.
 */
export function createNotificationsService(deps: { db: Db; mailer: Mailer; publicUrl: string; apiPrefix: string; secret: string }) {
  const { db } = deps;
  const tokens = createUnsubscribeTokens(deps.secret);
  const base = deps.publicUrl.replace(/\/+$/, '');

  const linksFor = (userId: number | null, kind: NotificationKind): NotificationLinks => {
    // A row always names its account; without one (set null when the account went) the profile is the way out.
    const token = userId === null ? null : encodeURIComponent(tokens.create(userId, kind));
    return {
      public_url: base,
      unsubscribe_url: token ? `${base}/unsubscribe?token=${token}` : `${base}/profile`,
      one_click_url: token ? `${base}${deps.apiPrefix}${UNSUBSCRIBE_PATH}?token=${token}` : `${base}/profile`,
    };
  };

  // Rows queued in bulk have no bodies: the worker renders them with these (one process serves one site), in the
  // recipient's language the row's params recorded when it was queued (en-US when none: rows queued before issue 31).
  for (const kind of NOTIFICATION_KINDS) {
    registerMailTemplate(kind, (params, row) =>
      renderNotification(kind, { ...params, ...linksFor(row.userId, kind) }, mailLanguageOf(params.language)),
    );
  }

  /** The event's name and the end of one of its windows (ISO), read in the caller's transaction. */
  async function eventContext(tx: DbOrTx, eventId: number, window: 'review_submission' | 'moderation_submission' | null) {
    const event = await requireEvent(tx, eventId);
    let windowEnd: string | null = null;
    if (window) {
      const row = await findConfig(tx, 'reviews', eventId);
      const value = mergeReviewsConfig((row?.value as ReviewsConfigValue | undefined) ?? {})[`${window}_ends_at`];
      windowEnd = typeof value === 'string' ? value : null;
    }
    return { eventId, eventName: event.name, windowEnd };
  }

  function tokenOf(token: string) {
    const verified = tokens.verify(token);
    if (!verified) throw badRequest(unsubscribeMessages.invalidToken);
    return verified;
  }

  async function stateOf(userId: number, kind: NotificationKind): Promise<UnsubscribeState> {
    return { kind, unsubscribed: (await repo.optedOutKinds(db, userId)).includes(kind) };
  }

  return {
    linksFor,
    unsubscribeToken: (userId: number, kind: NotificationKind) => tokens.create(userId, kind),

    // ---------- triggers: each inside the transaction of the change ----------

    async reviewAllocationDone(tx: DbOrTx, eventId: number): Promise<number> {
      return repo.queueReviewAllocations(tx, await eventContext(tx, eventId, 'review_submission'));
    },

    async moderationAllocationDone(tx: DbOrTx, eventId: number): Promise<number> {
      return repo.queueModerationAllocations(tx, await eventContext(tx, eventId, 'moderation_submission'));
    },

    async reviewOutcomesDone(tx: DbOrTx, eventId: number): Promise<number> {
      return repo.queueReviewOutcomes(tx, await eventContext(tx, eventId, null));
    },

    /** An admin invited a user to LV2 of an event (their subscription `subscriptionId`, status invited). */
    async invited(tx: DbOrTx, invitation: { userId: number; eventId: number; subscriptionId: number }): Promise<boolean> {
      const recipient = await repo.notifiableRecipient(tx, invitation.userId, 'lv2_invitation');
      if (!recipient) return false;
      const { eventName } = await eventContext(tx, invitation.eventId, null);
      const params = { event_name: eventName, language: recipient.language };
      const language = mailLanguageOf(recipient.language);
      const mail = renderNotification('lv2_invitation', { ...params, ...linksFor(invitation.userId, 'lv2_invitation') }, language);
      await deps.mailer.enqueue(tx, {
        to: recipient.email,
        kind: 'lv2_invitation',
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        link: mail.link ?? '',
        headers: mail.headers ?? {},
        userId: invitation.userId,
        eventId: invitation.eventId,
        params,
        dedupeKey: `lv2_invitation:${invitation.subscriptionId}`,
      });
      return true;
    },

    // ---------- preferences ----------

    async preferences(userId: number): Promise<NotificationPreferences> {
      const off = new Set(await repo.optedOutKinds(db, userId));
      return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !off.has(kind)])) as NotificationPreferences;
    },

    async updatePreferences(
      userId: number,
      update: Partial<Record<NotificationKind, boolean | undefined>>,
    ): Promise<NotificationPreferences> {
      const kinds = NOTIFICATION_KINDS.filter((kind) => update[kind] !== undefined);
      await db.transaction(async (tx) => {
        await repo.optOut(
          tx,
          userId,
          kinds.filter((kind) => update[kind] === false),
        );
        await repo.optIn(
          tx,
          userId,
          kinds.filter((kind) => update[kind] === true),
        );
      });
      return this.preferences(userId);
    },

    // ---------- one-click unsubscribe (no login: the signed token names the person and the kind) ----------

    async unsubscribeState(token: string): Promise<UnsubscribeState> {
      const { userId, kind } = tokenOf(token);
      if (!(await repo.userExists(db, userId))) throw badRequest(unsubscribeMessages.invalidToken);
      return stateOf(userId, kind);
    },

    /** Turns the token's kind off for its person; using the link again changes nothing and answers the same. */
    async unsubscribe(token: string): Promise<UnsubscribeState> {
      const { userId, kind } = tokenOf(token);
      if (!(await repo.userExists(db, userId))) throw badRequest(unsubscribeMessages.invalidToken);
      await repo.optOut(db, userId, [kind]);
      return { kind, unsubscribed: true };
    },

    /** Undoes an unsubscribe (the confirmation screen offers it). */
    async resubscribe(token: string): Promise<UnsubscribeState> {
      const { userId, kind } = tokenOf(token);
      if (!(await repo.userExists(db, userId))) throw badRequest(unsubscribeMessages.invalidToken);
      await repo.optIn(db, userId, [kind]);
      return { kind, unsubscribed: false };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
