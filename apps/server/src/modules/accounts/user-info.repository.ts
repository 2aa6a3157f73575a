import { sql } from 'drizzle-orm';
import type { SubscriptionPublic } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { isoText } from '../../db/iso-text';
import { perDatabase, preparedRows } from '../../db/named-statements';
import {
  catalystIds,
  categories,
  events,
  proposalAllocations,
  proposalAuthors,
  proposals,
  reviews,
  subscriptions,
  users,
} from '../../db/schema/index';
import { historyOf, reviewHistorySql, type HistoryCounts } from '../../db/review-history';
import type { AccountRow } from './accounts.repository';

/**
 * domain/proposal-document `catalystKey` in SQL, of the Catalyst ID text `id`: no scheme, no `#encrypt`, no
 * `username@`, no trailing `/role/rotation`, the network in lower case — the key proposal authors are stored under.
 * A test holds it to the TypeScript function on IDs of every form.
 */
export function catalystKeySql(id: ReturnType<typeof sql>) {
  const bare = sql`regexp_replace(regexp_replace(btrim(${id}), '^id\\.catalyst://', '', 'i'), '#encrypt$', '', 'i')`;
  const unnamed = sql`(case when strpos(k.bare, '@') > 0 and (strpos(k.bare, '/') = 0 or strpos(k.bare, '@') < strpos(k.bare, '/'))
    then substr(k.bare, strpos(k.bare, '@') + 1) else k.bare end)`;
  const path = sql`regexp_replace(${unnamed}, '/[0-9]+/[0-9]+$', '')`;
  return sql`(select lower(split_part(k.path, '/', 1)) || substr(k.path, length(split_part(k.path, '/', 1)) + 1)
    from (select ${path} as path from (select ${bare} as bare) k) k)`;
}

/**
 * Everything the user info (spec §3, `users/me/`) holds, in one named statement for the `user` placeholder: the
 * account, the objectives they authored in, their subscriptions in the wire shape (newest first, preferred
 * categories with their titles in the order chosen), their reviewing in the current events and their history over
 * the past rounds. Five drizzle statements before (issue 45 item 13); the profile reads it on every signed-in page.
 */
const userInfoStatement = perDatabase((db: Db) => {
  const user = sql.placeholder('user');
  const history = reviewHistorySql(sql`${user}::int`);
  return preparedRows<UserInfoRow>(
    db,
    'user_info',
    sql`select u.id as "userId", u.role, u.force_reset as "forceReset", ${isoText(sql`u.registered_at`)} as "registeredAt",
      u.due_diligence_status as "dueDiligenceStatus", u.due_diligence_url as "dueDiligenceUrl", u.language,
      u.banned_reason as "bannedReason", ${isoText(sql`u.banned_at`)} as "bannedAt",
      c.id as "catalystIdRef", c.catalyst_id as "catalystId", c.email, c.email_verified_at is not null as "emailVerified",
      c.username, c.status, c.rbac_reg_status as "rbacRegStatus",
      ${isoText(sql`c.rbac_checked_at`)} as "rbacCheckedAt",
      (select coalesce(json_agg(o.category_id order by o.category_id), '[]'::json) from (
        select distinct p.category_id from ${proposalAuthors} pa join ${proposals} p on p.id = pa.proposal_id
        where pa.catalyst_key = ${catalystKeySql(sql`c.catalyst_id`)} and p.category_id is not null) o) as objectives,
      (select coalesce(json_agg(json_build_object(
          'row_id', s.id, 'event_id', s.event_id, 'user_id', s.user_id,
          'event', json_build_object('row_id', e.id, 'name', e.name, 'description', e.description, 'active', e.active),
          'role', s.role, 'status', s.status,
          'extra', json_build_object('anonymous_id', s.anonymous_id, 'sumsub_link', s.verification_link,
            'reward_address', s.reward_address, 'public_contact', s.public_contact,
            'telegram_handle_private', s.telegram_handle_private,
            'preferred_categories', (select coalesce(json_agg(json_build_object('id', pc.id, 'title', pc.title) order by pc.ord), '[]'::json)
              from (select ct.id, ct.title, chosen.ord from jsonb_array_elements_text(s.preferred_categories) with ordinality chosen(id, ord)
                join ${categories} ct on ct.id = chosen.id::int) pc),
            'subscribed_at', ${isoText(sql`s.subscribed_at`)}))
          order by s.subscribed_at desc, s.id desc), '[]'::json)
        from ${subscriptions} s join ${events} e on e.id = s.event_id where s.user_id = u.id) as subscriptions,
      (select count(*)::int from ${proposalAllocations} a join ${subscriptions} s on s.id = a.subscription_id
        join ${events} e on e.id = a.event_id where s.user_id = u.id and e.active) as allocations,
      (select count(*)::int from ${reviews} r join ${subscriptions} s on s.id = r.subscription_id
        join ${events} e on e.id = r.event_id where s.user_id = u.id and e.active) as submitted,
      (select count(*)::int from ${reviews} r join ${subscriptions} s on s.id = r.subscription_id
        join ${events} e on e.id = r.event_id where s.user_id = u.id and e.active and exists (
          select 1 from ${proposalAllocations} a where a.subscription_id = r.subscription_id and a.proposal_id = r.proposal_id))
        as "allocatedSubmitted",
      ${history.counts} as "historyCounts", ${history.moderations} as "historyModerations"
    from ${users} u join ${catalystIds} c on c.id = u.catalyst_id_ref where u.id = ${user}::int`,
  );
});

interface UserInfoRow {
  userId: number;
  role: number;
  forceReset: boolean;
  registeredAt: string;
  dueDiligenceStatus: number;
  dueDiligenceUrl: string | null;
  language: AccountRow['language'];
  bannedReason: string | null;
  bannedAt: string | null;
  catalystIdRef: number;
  catalystId: string;
  email: string | null;
  emailVerified: boolean;
  username: string | null;
  status: number;
  rbacRegStatus: number;
  rbacCheckedAt: string | null;
  objectives: number[];
  subscriptions: SubscriptionPublic[];
  allocations: number;
  submitted: number;
  allocatedSubmitted: number;
  historyCounts: HistoryCounts;
  historyModerations: { submitted: number; active_funds: number };
}

/** The user's info's parts (see `userInfoStatement`), or undefined for no such user. */
export async function findUserInfo(db: Db, userId: number) {
  const [row] = await userInfoStatement(db)({ user: userId });
  if (!row) return undefined;
  return { ...row, history: historyOf({ counts: row.historyCounts, moderations: row.historyModerations }) };
}
export type UserInfoParts = NonNullable<Awaited<ReturnType<typeof findUserInfo>>>;
