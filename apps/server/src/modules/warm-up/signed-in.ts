import { reviewsFilterQuery } from '@cr/contract/reviews';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../domain/auth-user';
import type { UserInfoService } from '../accounts/user-info.service';
import type { ModerationsService } from '../moderations/moderations.service';
import type { ProposalsService } from '../proposals/proposals.service';
import type { ReviewsService } from '../reviews/reviews.service';
import { rowsOf } from '../../db/rows';

/** A session id no session has: the session check's statement runs, and finds nothing. */
const NO_SESSION = '00000000-0000-0000-0000-000000000000';

export interface SignedInDeps {
  db: Db;
  userInfo: Pick<UserInfoService, 'sessionUser' | 'userInfo'>;
  proposals: Pick<ProposalsService, 'allocatedJson' | 'getJson'>;
  reviews: Pick<ReviewsService, 'filteredJson' | 'getJson' | 'moderatorPageJson' | 'submittedReview' | 'visibleEventOf'>;
  moderations: Pick<ModerationsService, 'allocatedCount' | 'byReview'>;
}

/**
 * A reviewer and a moderator of the current rounds, as the session check would give them, with a proposal the
 * reviewer reviewed and a review allocated to the moderator: whom the signed-in reads are warmed for. A reviewer who
 * reviewed an allocated proposal is preferred, then any with allocations; either may be missing (a round before its
 * allocation). Each part stops at its first row.
 */
async function sampleOf(db: Db, eventIds: number[]) {
  type Row = AuthUser & { kind: string; proposalId: number | null; reviewId: number | null };
  const events = sql`(${sql.join(
    eventIds.map((id) => sql`${id}::int`),
    sql`, `,
  )})`;
  const account = sql`u.id, u.role, c.status, u.force_reset as "forceReset"`;
  const owner = sql`join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      (select 'reviewed' as kind, ${account}, r.proposal_id as "proposalId", null::int as "reviewId"
         from reviews r join proposal_allocations a on a.subscription_id = r.subscription_id and a.proposal_id = r.proposal_id
         join subscriptions s on s.id = r.subscription_id ${owner}
        where r.event_id in ${events} limit 1)
      union all
      (select 'reviewer', ${account}, null, null
         from proposal_allocations a join subscriptions s on s.id = a.subscription_id ${owner}
        where a.event_id in ${events} limit 1)
      union all
      (select 'moderator', ${account}, null, m.review_id
         from moderation_allocations m join subscriptions s on s.id = m.subscription_id ${owner}
        where m.event_id in ${events} limit 1)`),
  );
  const strip = ({ id, role, status, forceReset }: Row): AuthUser => ({ id, role, status, forceReset });
  const reviewer = rows.find((row) => row.kind === 'reviewed') ?? rows.find((row) => row.kind === 'reviewer');
  const moderator = rows.find((row) => row.kind === 'moderator');
  return {
    reviewer: reviewer && { user: strip(reviewer), proposalId: reviewer.proposalId },
    moderator: moderator && { user: strip(moderator), reviewId: moderator.reviewId },
  };
}

/**
 * The reads a signed-in reviewer and moderator make on every screen (issue 45 item 14): each request's session check,
 * their own info, their allocated proposals and own reviews, a moderator's lists, and the public reads as a signed-in
 * viewer asks them (their named statements differ from a visitor's: the viewer's own rows are marked). Pure reads,
 * run inside the server for a sample account, their answers thrown away: no session is made, nothing is written or
 * logged about the account. Each is a function of no argument, for the warm-up to run WARM_READS_AT_ONCE at once.
 */
export async function signedInReads(deps: SignedInDeps, eventIds: number[]): Promise<(() => Promise<unknown>)[]> {
  if (eventIds.length === 0) return [];
  const { reviewer, moderator } = await sampleOf(deps.db, eventIds);
  const page = { size: 25, page: 0 };
  const reads: (() => Promise<unknown>)[] = [];
  for (const sample of [reviewer, moderator]) {
    if (!sample) continue;
    const { user } = sample;
    reads.push(
      () => deps.userInfo.sessionUser(user.id, NO_SESSION),
      () => deps.userInfo.userInfo(user.id),
      () => deps.reviews.filteredJson(user, reviewsFilterQuery.parse({ event_id: String(eventIds[0]) })),
    );
  }
  if (reviewer) {
    const { user, proposalId } = reviewer;
    reads.push(
      () => deps.proposals.allocatedJson(user.id, page),
      () => deps.reviews.filteredJson(user, reviewsFilterQuery.parse({ my_reviews: 'true' })),
    );
    if (proposalId !== null)
      reads.push(
        () => deps.proposals.getJson(proposalId, user.id),
        () => deps.reviews.submittedReview(user, proposalId),
      );
  }
  if (moderator) {
    const { user, reviewId } = moderator;
    reads.push(
      () => deps.reviews.moderatorPageJson(user, 'allocated', page),
      () => deps.reviews.moderatorPageJson(user, 'moderated', page),
      () => deps.moderations.allocatedCount(user),
    );
    if (reviewId !== null)
      reads.push(
        () => deps.reviews.getJson(user, reviewId),
        () => deps.moderations.byReview(user, reviewId, deps.reviews.visibleEventOf(user, reviewId)),
      );
  }
  return reads;
}
