import { sql } from 'drizzle-orm';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { DbOrTx } from '../../db/client';

export interface AllocatedForFile {
  proposal_id: number;
  title: string;
  summary: string | null;
  url: string | null;
  review_id: number | null;
  version: number | null;
  impact_alignment_rating_given: number | null;
  impact_alignment_note: string | null;
  feasibility_rating_given: number | null;
  feasibility_note: string | null;
  auditability_rating_given: number | null;
  auditability_note: string | null;
}

/**
 * The proposals allocated to the user's active reviewer subscriptions in the current (active) rounds, in id order,
 * each with the user's review of it, if any, and that review's last version (issue 29 item 2).
 */
export async function allocatedForFile(db: DbOrTx, userId: number): Promise<AllocatedForFile[]> {
  const result = await db.execute(sql`
    select p.id as proposal_id, p.title, p.summary, p.url, r.id as review_id,
           (select max(v.version) from review_versions v where v.review_id = r.id)::int as version,
           r.impact_alignment_rating_given, r.impact_alignment_note, r.feasibility_rating_given, r.feasibility_note,
           r.auditability_rating_given, r.auditability_note
    from proposal_allocations pa
    join subscriptions s on s.id = pa.subscription_id
    join proposals p on p.id = pa.proposal_id
    join events e on e.id = p.event_id and e.active
    left join reviews r on r.subscription_id = s.id and r.proposal_id = p.id
    where s.user_id = ${userId} and s.status = ${SubscriptionStatus.active}
      and s.role in (${ReviewerLevel.level_0}, ${ReviewerLevel.level_1})
    order by p.id`);
  return ((result as { rows?: AllocatedForFile[] }).rows ?? (result as unknown as AllocatedForFile[])) as AllocatedForFile[];
}
