import { SubscriptionStatus } from '@cr/contract/subscriptions';
import { DueDiligenceStatus } from '@cr/contract/users';
import { outcomeOf, webhookPayload, type CheckOutcome, type VerificationProvider } from '../../adapters/verification';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, unauthorized } from '../../errors';
import { recordAudit } from '../system/audit.service';
import * as repo from './verification.repository';

export const verificationMessages = {
  badSignature: 'The webhook signature is missing or wrong.',
  badPayload: 'The webhook body is not a verification event.',
};

/** Due-diligence status each outcome leads to; a pending report never undoes an approval that came first. */
const dueDiligenceAfter: Record<CheckOutcome, (current: number) => number> = {
  created: (current) => (current === DueDiligenceStatus.unknown ? DueDiligenceStatus.initialized : current),
  pending: (current) => (current === DueDiligenceStatus.green ? current : DueDiligenceStatus.pending),
  green: () => DueDiligenceStatus.green,
  red: () => DueDiligenceStatus.red,
};

/**
 * Identity checks of subscriptions and users' due diligence (DOMAIN.md): started through the verification adapter,
 * finished by its signed webhook.
 */
export function createVerificationService(deps: { db: Db; provider: VerificationProvider }) {
  const { db, provider } = deps;

  /** An identity check for the person's own answer; only an approval makes a subscription active. */
  async function applyIdentity(tx: DbOrTx, ref: string, outcome: CheckOutcome) {
    const subscription = await repo.lockSubscriptionByRef(tx, ref);
    if (!subscription) return false;
    const next =
      outcome === 'green'
        ? { status: SubscriptionStatus.active, from: [SubscriptionStatus.subscribed] }
        : outcome === 'red'
          ? { status: SubscriptionStatus.excluded, from: [SubscriptionStatus.subscribed, SubscriptionStatus.active] }
          : null;
    if (next && (await repo.setSubscriptionStatus(tx, subscription.id, next.status, next.from))) {
      await recordAudit(tx, {
        actorUserId: null,
        action: 'subscription.verification',
        entity: 'subscription',
        entityId: String(subscription.id),
        eventId: subscription.eventId,
        before: { status: subscription.status },
        after: { status: next.status },
      });
    }
    return true;
  }

  async function applyDueDiligence(tx: DbOrTx, ref: string, outcome: CheckOutcome) {
    const user = await repo.lockUserByDueDiligenceRef(tx, ref);
    if (!user) return false;
    const status = dueDiligenceAfter[outcome](user.status);
    if (status !== user.status) {
      await repo.setDueDiligence(tx, user.id, { status });
      await recordAudit(tx, {
        actorUserId: null,
        action: 'user.due_diligence',
        entity: 'user',
        entityId: String(user.id),
        eventId: null,
        before: { status: user.status },
        after: { status },
      });
    }
    return true;
  }

  return {
    enabled: provider.enabled,

    /** Status and verification fields of a new LV0/LV1 (or accepted LV2) subscription. */
    identityCheck(): { status: number; verificationLink: string | null; verificationRef: string | null } {
      const check = provider.start('identity');
      return check
        ? { status: SubscriptionStatus.subscribed, verificationLink: check.link, verificationRef: check.ref }
        : { status: SubscriptionStatus.active, verificationLink: null, verificationRef: null };
    },

    /** Starts due diligence for a user who has none yet (an accepted LV2 invitation); nothing when verification is off. */
    async startDueDiligence(tx: DbOrTx, userId: number) {
      const current = await repo.dueDiligenceOf(tx, userId);
      if (!current || current.status !== DueDiligenceStatus.unknown) return;
      const check = provider.start('due_diligence');
      if (check) await repo.setDueDiligence(tx, userId, { status: DueDiligenceStatus.initialized, url: check.link, ref: check.ref });
    },

    /**
     * A webhook call: the signature over the raw body is checked first, and a bad one changes nothing (401). Events
     * we don't act on and references we don't know are acknowledged, so the provider stops resending them.
     */
    async handleWebhook(rawBody: Buffer, headers: { algorithm?: string | undefined; digest?: string | undefined }) {
      if (!provider.signatureValid(rawBody, headers)) throw unauthorized(verificationMessages.badSignature);
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw badRequest(verificationMessages.badPayload);
      }
      const parsed = webhookPayload.safeParse(body);
      if (!parsed.success) throw badRequest(verificationMessages.badPayload);
      const outcome = outcomeOf(parsed.data);
      if (!outcome) return { applied: false };
      const ref = parsed.data.externalUserId;
      const applied = await db.transaction(
        async (tx) => (await applyIdentity(tx, ref, outcome)) || (await applyDueDiligence(tx, ref, outcome)),
      );
      return { applied };
    },
  };
}
export type VerificationService = ReturnType<typeof createVerificationService>;
