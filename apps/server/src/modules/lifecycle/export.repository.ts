import { sql, type SQL } from 'drizzle-orm';
import type { AccountExport } from '@cr/contract/lifecycle';
import type { DbOrTx } from '../../db/client';

/*
 * Issue 47: everything the server keeps about one person, in one statement (a consistent snapshot), as JSON. Every
 * section is filtered by the caller's user id or their own subscriptions only: the export test (account-export) checks
 * that it holds all of a person's rows and none of anyone else's.
 */

const list = (query: SQL) => sql`(select coalesce(json_agg(t), '[]'::json) from (${query}) t)`;

export async function exportOf(db: DbOrTx, userId: number): Promise<Omit<AccountExport, 'format' | 'exported_at'> | undefined> {
  const mine = sql`(select s.id from subscriptions s where s.user_id = ${userId})`;
  const myReviews = sql`(select r.id from reviews r where r.subscription_id in ${mine})`;
  const myAppeals = sql`(select a.id from appeals a where a.subscription_id in ${mine})`;
  const query = sql`select json_build_object(
    'account', (select row_to_json(a) from (
      select u.id as user_id, c.catalyst_id, c.email, c.email_verified_at, c.username, c.status, c.rbac_reg_status,
        u.role, u.force_reset, u.policy_acknowledgments, u.registered_at, u.due_diligence_status, u.due_diligence_url,
        u.language, u.banned_reason, u.banned_at, u.closed_at
      from users u join catalyst_ids c on c.id = u.catalyst_id_ref where u.id = ${userId}) a),
    'subscriptions', ${list(sql`select s.id, s.event_id, e.name as event_name, s.role as level, s.status, s.anonymous_id,
        s.preferred_categories, s.reward_address, s.public_contact, s.telegram_handle_private, s.verification_link, s.subscribed_at
      from subscriptions s join events e on e.id = s.event_id where s.user_id = ${userId} order by s.id`)},
    'reviews', ${list(sql`select r.id, r.event_id, r.proposal_id, p.title as proposal_title, r.subscription_id,
        r.impact_alignment_rating_given, r.impact_alignment_note, r.feasibility_rating_given, r.feasibility_note,
        r.auditability_rating_given, r.auditability_note, r.ranking, r.created_at, r.updated_at
      from reviews r join proposals p on p.id = r.proposal_id where r.subscription_id in ${mine} order by r.id`)},
    'review_versions', ${list(sql`select v.id, v.review_id, v.event_id, v.proposal_id, v.version, v.action,
        (v.actor_user_id = ${userId}) as by_you, v.content, v.created_at
      from review_versions v where v.subscription_id in ${mine} order by v.review_id, v.version`)},
    'moderations', ${list(sql`select m.id, m.event_id, m.review_id, m.classification, m.rationale, m.predefined_reason,
        m.custom_rationale, m.created_at, m.updated_at
      from moderations m where m.subscription_id in ${mine} order by m.id`)},
    'moderation_versions', ${list(sql`select v.id, v.moderation_id, v.review_id, v.event_id, v.version, v.action,
        (v.actor_user_id = ${userId}) as by_you, v.content, v.created_at
      from moderation_versions v where v.subscription_id in ${mine} order by v.moderation_id, v.version`)},
    'appeals', ${list(sql`select a.id, a.event_id, a.review_id, a.rationale, a.status, a.created_at, a.decided_at
      from appeals a where a.id in ${myAppeals} order by a.id`)},
    'appeal_decisions', ${list(sql`select d.id, d.appeal_id, d.decision, d.rationale, d.predefined_reason, d.custom_rationale,
        d.created_at, d.updated_at
      from appeal_decisions d where d.subscription_id in ${mine} order by d.id`)},
    'notification_opt_outs', ${list(sql`select o.kind, o.created_at from notification_opt_outs o where o.user_id = ${userId} order by o.kind`)},
    'api_tokens', ${list(sql`select t.id, t.name, t.scopes, t.hint, t.created_at, t.expires_at, t.last_used_at, t.revoked_at
      from api_tokens t where t.user_id = ${userId} order by t.id`)},
    'mails', ${list(sql`select m.id, m.kind, m.recipient, m.subject, m.status, m.created_at, m.sent_at
      from outbox m where m.user_id = ${userId} order by m.id`)},
    'audit_entries', ${list(sql`select l.id, l.action, l.entity, l.entity_id, l.event_id, (l.actor_user_id = ${userId}) as by_you,
        l.before, l.after, l.created_at
      from audit_log l where l.actor_user_id = ${userId}
        or (l.entity = 'user' and l.entity_id = ${String(userId)})
        or (l.entity = 'subscription' and l.entity_id in (select s.id::text from subscriptions s where s.user_id = ${userId}))
        or (l.entity = 'review' and l.entity_id in (select r.id::text from reviews r where r.id in ${myReviews}))
        or (l.entity = 'appeal' and l.entity_id in (select a.id::text from appeals a where a.id in ${myAppeals}))
      order by l.id`)}) as export`;
  const result = await db.execute(query);
  const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
  const row = rows[0] as { export: unknown } | undefined;
  const data = (typeof row?.export === 'string' ? JSON.parse(row.export) : row?.export) as Omit<AccountExport, 'format' | 'exported_at'>;
  return data?.account ? data : undefined;
}
