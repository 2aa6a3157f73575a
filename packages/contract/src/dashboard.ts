import { z } from 'zod';

/**
 * The round's dashboard (issue 15 item 5): `GET events/{id}/dashboard/`, admins only. Every figure of the Overview
 * section of the event configuration screen, counted by a handful of aggregate queries. The answer is a snapshot:
 * `computed_at` says when it was counted (it is kept for a few seconds, DASHBOARD_TTL_SECONDS).
 */

/** How long a snapshot is served before it is counted again (in the background, while the older one is served). */
export const DASHBOARD_TTL_SECONDS = 30;
/** The width of a bucket of the score distribution (overall scores run from 1 to 5). */
export const SCORE_BUCKET_WIDTH = 0.5;

const count = z.number().int();
const spread = z.object({ min: z.number(), avg: z.number(), max: z.number() });

export const dashboard = z.object({
  event_id: count,
  computed_at: z.string(),
  /** Subscriptions per level (0, 1, 2) and status (SubscriptionStatus: 0 subscribed … 4 refused). */
  subscribers: z.object({
    total: count,
    by_level: z.array(z.object({ level: count, total: count, by_status: z.record(z.string(), count) })),
  }),
  /** Proposals per category (objective); `category_id` null for proposals without one. */
  proposals: z.object({
    total: count,
    by_category: z.array(z.object({ category_id: count.nullable(), title: z.string().nullable(), count })),
  }),
  /** Proposal allocation: pairs, the proposals and reviewers they reach, and the allocated pairs already reviewed. */
  allocations: z.object({
    allocations: count,
    proposals_allocated: count,
    reviewers_allocated: count,
    reviews_done: count,
    reviews_total: count,
  }),
  /** Reviews submitted per UTC day, with the event's review submission window (null ends when not set). */
  reviews_per_day: z.object({
    window: z.object({ starts_at: z.string().nullable(), ends_at: z.string().nullable() }),
    days: z.array(z.object({ day: z.string(), count })),
  }),
  /** Moderation allocation pairs, those moderated, and per moderator (with an allocation) the spread of both. */
  moderation: z.object({
    allocated: count,
    moderated: count,
    moderations: count,
    moderators: count,
    allocated_per_moderator: spread,
    moderated_per_moderator: spread,
  }),
  /** Reviews by ranking (ReviewRanking): pending until the review outcomes run. */
  outcomes: z.object({ pending: count, included: count, excluded_moderation: count, excluded_threshold: count }),
  /**
   * Proposals' overall scores (once the proposal scores run wrote them) in buckets of SCORE_BUCKET_WIDTH from 1 to 5:
   * [from, from + width), the last one closed; `unscored` proposals have a score row without an overall.
   */
  scores: z.object({
    scored: count,
    unscored: count,
    buckets: z.array(z.object({ from: z.number(), to: z.number(), count })),
  }),
});
export type Dashboard = z.infer<typeof dashboard>;
