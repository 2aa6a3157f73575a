import { DASHBOARD_TTL_SECONDS, SCORE_BUCKET_WIDTH, type Dashboard } from '@cr/contract/dashboard';
import { ReviewRanking } from '@cr/contract/reviews';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { Db } from '../../db/client';
import { allLimited } from '../../lib/concurrency';
import { createSnapshotCache } from '../../lib/snapshot-cache';

import * as repo from './dashboard.repository';

/** The aggregates run at once when an admin waits for the first count; a background recount runs them one at a time. */
const DASHBOARD_QUERY_SLOTS = 2;

const SCORE_MIN = 1;
const SCORE_MAX = 5;
const BUCKETS = Math.round((SCORE_MAX - SCORE_MIN) / SCORE_BUCKET_WIDTH);
const LEVELS = Object.values(ReviewerLevel) as number[];
const STATUS_NAMES = Object.entries(SubscriptionStatus) as [string, number][];
/** The snapshot's window, replaced by the configuration's on every answer. */
const NO_WINDOW = { starts_at: null, ends_at: null };

const spreadOf = (values: number[]) =>
  values.length === 0
    ? { min: 0, avg: 0, max: 0 }
    : {
        min: Math.min(...values),
        avg: Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100,
        max: Math.max(...values),
      };

/**
 * The round's dashboard (issue 15 item 5): a snapshot of the event's figures counted by nine aggregate queries, two
 * at a time (one at a time in the process's background lane when recounting), kept DASHBOARD_TTL_SECONDS per event
 * and recounted in the background while the older one is served
 * (counting a million reviews is the costly part; a dashboard a few seconds old is fine). Admins only (the route).
 * The admin's own writes show at once (issue 26 items 10, 16): a run, an import or an invitation makes the event's
 * snapshot forgotten (`eventChanged`), and the review window is read with each request, not kept in the snapshot.
 */
export function createDashboardService(deps: {
  db: Db;
  /** The event (404 when unknown). */
  events: { get(eventId: number): Promise<unknown> };
  /** The event's reviews configuration: the review submission window. */
  eventConfig: { reviewsConfig(eventId: number): Promise<{ value: Record<string, unknown> }> };
  ttlMs?: number;
  onError?: (error: unknown) => void;
}) {
  const { db } = deps;
  const snapshots = createSnapshotCache<Dashboard>({
    ttlMs: deps.ttlMs ?? DASHBOARD_TTL_SECONDS * 1000,
    onError: deps.onError,
    name: 'dashboard',
  });

  /** The review submission window, from the event's configuration (kept in process a moment, dropped on a change). */
  async function reviewWindow(eventId: number): Promise<Dashboard['reviews_per_day']['window']> {
    const { value } = await deps.eventConfig.reviewsConfig(eventId);
    const at = (name: string) => (typeof value[name] === 'string' ? (value[name] as string) : null);
    return { starts_at: at('review_submission_starts_at'), ends_at: at('review_submission_ends_at') };
  }

  async function count(eventId: number, background: boolean): Promise<Dashboard> {
    // Two at a time (one in the background): the nine aggregates side by side would take every pooled connection and
    // both cores for a second or more on a whole round, stalling the requests being served meanwhile.
    const [subscriptions, categories, allocation, allocated, rankings, days, moderators, moderations, scores] = await allLimited(
      background ? 1 : DASHBOARD_QUERY_SLOTS,
      [
        () => repo.subscriptionCounts(db, eventId),
        () => repo.proposalsPerCategory(db, eventId),
        () => repo.allocationTotals(db, eventId),
        () => repo.allocatedCounts(db, eventId),
        () => repo.reviewsPerRanking(db, eventId),
        () => repo.reviewsPerDay(db, eventId),
        () => repo.moderationPerModerator(db, eventId),
        () => repo.moderationCount(db, eventId),
        () => repo.scoreBuckets(db, eventId, SCORE_BUCKET_WIDTH, BUCKETS),
      ] as const,
    );

    const ranking = (value: number) => rankings.find((row) => row.ranking === value)?.n ?? 0;
    return {
      event_id: eventId,
      computed_at: new Date().toISOString(),
      subscribers: {
        total: subscriptions.reduce((sum, row) => sum + row.n, 0),
        by_level: LEVELS.map((level) => {
          const ofLevel = subscriptions.filter((row) => row.level === level);
          return {
            level,
            total: ofLevel.reduce((sum, row) => sum + row.n, 0),
            by_status: Object.fromEntries(
              STATUS_NAMES.map(([name, status]) => [name, ofLevel.find((row) => row.status === status)?.n ?? 0]),
            ),
          };
        }),
      },
      proposals: {
        total: categories.reduce((sum, row) => sum + row.n, 0),
        by_category: categories.map((row) => ({ category_id: row.category_id, title: row.title, count: row.n })),
      },
      allocations: {
        allocations: allocation.allocations,
        proposals_allocated: allocated.proposals,
        reviewers_allocated: allocated.reviewers,
        reviews_done: allocation.reviews_done,
        reviews_total: rankings.reduce((sum, row) => sum + row.n, 0),
      },
      reviews_per_day: { window: NO_WINDOW, days: days.map((row) => ({ day: row.day, count: row.n })) },
      moderation: {
        allocated: moderators.reduce((sum, row) => sum + row.allocated, 0),
        moderated: moderators.reduce((sum, row) => sum + row.moderated, 0),
        moderations,
        moderators: moderators.length,
        allocated_per_moderator: spreadOf(moderators.map((row) => row.allocated)),
        moderated_per_moderator: spreadOf(moderators.map((row) => row.moderated)),
      },
      outcomes: {
        pending: ranking(ReviewRanking.pending),
        included: ranking(ReviewRanking.included),
        excluded_moderation: ranking(ReviewRanking.excluded_moderation),
        excluded_threshold: ranking(ReviewRanking.excluded_threshold),
      },
      scores: {
        scored: scores.filter((row) => row.bucket !== null).reduce((sum, row) => sum + row.n, 0),
        unscored: scores.find((row) => row.bucket === null)?.n ?? 0,
        buckets: Array.from({ length: BUCKETS }, (_, bucket) => ({
          from: SCORE_MIN + bucket * SCORE_BUCKET_WIDTH,
          to: SCORE_MIN + (bucket + 1) * SCORE_BUCKET_WIDTH,
          count: scores.find((row) => row.bucket === bucket)?.n ?? 0,
        })),
      },
    };
  }

  return {
    /**
     * `GET events/{id}/dashboard/`: the event's snapshot, counted when none is kept; 404 for an unknown event (asked
     * only when no snapshot is kept: events are never deleted, so a kept snapshot's event exists).
     */
    async dashboard(eventId: number): Promise<Dashboard> {
      const key = String(eventId);
      if (!snapshots.has(key)) await deps.events.get(eventId);
      const [snapshot, window] = await Promise.all([snapshots.get(key, (background) => count(eventId, background)), reviewWindow(eventId)]);
      return { ...snapshot, reviews_per_day: { ...snapshot.reviews_per_day, window } };
    },
    /** The event's figures changed by a write its admin expects to see at once (a run, an import, an invitation). */
    eventChanged: (eventId: number) => snapshots.forget(String(eventId)),
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
