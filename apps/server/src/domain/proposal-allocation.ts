import { NO_OBJECTIVE } from './rules';
import { createPrng, shuffleInPlace, type Prng } from './prng';
import { averages, type Averages } from './stats';

export type { Averages };

/**
 * Proposal allocation (DOMAIN.md "Proposal allocation"): every active LV0/LV1 reviewer gets min(quota, eligible)
 * distinct proposals. Eligible: in scope and not in an objective (category) the reviewer authored in. LV1 reviewers
 * draw from their preferred categories first, then from the rest. Every pick takes a least-allocated eligible
 * proposal, so the spread of allocations per proposal stays ≤ 1 wherever conflicts and preferences don't bind;
 * reviewers with constraints pick first, and the free ones level the loads out after them. All ties go to a PRNG
 * seeded with the allocation seed: the same inputs give the same allocation.
 *
 * Cost: O(total picks × eligible categories), over typed arrays. No database here: the service loads the inputs and
 * writes the result.
 */

/** A category key for proposals without a category (they form a group of their own). */
export const NO_CATEGORY = NO_OBJECTIVE;

export interface AllocationReviewer {
  /** The reviewer's subscription id. */
  id: number;
  level: 0 | 1;
  /** LV1's preferred categories (ignored for LV0). */
  preferred: readonly number[];
  /** Categories in which the reviewer authored a proposal (conflict of interest); NO_CATEGORY for an uncategorised one. */
  conflicts: readonly number[];
}

export interface AllocationProposal {
  id: number;
  /** The proposal's category (objective) id, or null. */
  category: number | null;
}

export interface AllocationInput {
  reviewers: readonly AllocationReviewer[];
  proposals: readonly AllocationProposal[];
  quotaLv0: number;
  quotaLv1: number;
  /** Categories in scope; empty means all. */
  categories: readonly number[];
  seed: number;
}

/** Spec §3 "Allocation parameters (proposals)", result. */
export interface AllocationStats {
  tot: number;
  nr_of_reviewers: { tot: number; lv0: number; lv1: number };
  per_reviewer: Averages;
  per_proposal: Averages;
}

export interface AllocationResult {
  /** Pair i is (reviewerIds[i], proposalIds[i]). */
  reviewerIds: Int32Array;
  proposalIds: Int32Array;
  stats: AllocationStats;
  /** Allocations per in-scope proposal and per reviewer, for the histograms of the statistics modal. */
  perProposal: Int32Array;
  perReviewer: Int32Array;
}

/** Proposals of one category, kept in buckets by how often each is allocated so far. */
interface Group {
  buckets: number[][];
  min: number;
}

const categoryKey = (category: number | null) => category ?? NO_CATEGORY;

export function allocateProposals(input: AllocationInput): AllocationResult {
  const prng: Prng = createPrng(input.seed);
  const scope = new Set(input.categories);
  const proposals = input.proposals.filter((proposal) => scope.size === 0 || (proposal.category !== null && scope.has(proposal.category)));

  // Groups by category, in a fixed order so that the PRNG draws the same way every time.
  const groupOf = new Map<number, number>();
  const groups: Group[] = [];
  const groupKeys: number[] = [];
  const groupIndex = new Int32Array(proposals.length);
  const position = new Int32Array(proposals.length);
  const load = new Int32Array(proposals.length);
  const sorted = proposals.map((proposal, index) => ({ proposal, index })).sort((a, b) => a.proposal.id - b.proposal.id);
  for (const { proposal, index } of sorted) {
    const key = categoryKey(proposal.category);
    let g = groupOf.get(key);
    if (g === undefined) {
      g = groups.length;
      groupOf.set(key, g);
      groups.push({ buckets: [[]], min: 0 });
      groupKeys.push(key);
    }
    groupIndex[index] = g;
    position[index] = groups[g]!.buckets[0]!.length;
    groups[g]!.buckets[0]!.push(index);
  }

  // Reviewers with constraints first (LV1 preferences, then conflicts), each set in seeded random order.
  const reviewers = shuffleInPlace(
    [...input.reviewers].sort((a, b) => a.id - b.id),
    prng,
  );
  const rank = (reviewer: AllocationReviewer) =>
    reviewer.level === 1 && reviewer.preferred.length > 0 ? 0 : reviewer.conflicts.length > 0 ? 1 : 2;
  const order = reviewers
    .map((reviewer, index) => ({ reviewer, index }))
    .sort((a, b) => rank(a.reviewer) - rank(b.reviewer) || a.index - b.index);

  const pairsReviewer: number[] = [];
  const pairsProposal: number[] = [];
  const perReviewer = new Int32Array(reviewers.length);
  // takenBy[p] = turn + 1 while proposal p is taken by the reviewer of that turn.
  const takenBy = new Int32Array(proposals.length);
  // Per turn: how many of the reviewer's own picks sit in (group, level), so their buckets' free sizes are known.
  const takenAt = new Map<number, number>();
  const takenKey = (g: number, level: number) => g * 1_000_003 + level;
  const allGroups = groups.map((_, g) => g);

  /** The lowest level of group g holding a proposal this reviewer has not taken, and how many there are. */
  function lowestFree(g: number): { level: number; free: number } | null {
    const group = groups[g]!;
    while (group.min < group.buckets.length && group.buckets[group.min]!.length === 0) group.min += 1;
    for (let level = group.min; level < group.buckets.length; level += 1) {
      const free = group.buckets[level]!.length - (takenAt.get(takenKey(g, level)) ?? 0);
      if (free > 0) return { level, free };
    }
    return null;
  }

  /** A random proposal of group g's bucket at `level` that the reviewer of `turn` has not taken. */
  function drawFrom(g: number, level: number, turn: number): number {
    const bucket = groups[g]!.buckets[level]!;
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const candidate = bucket[prng.below(bucket.length)]!;
      if (takenBy[candidate] !== turn + 1) return candidate;
    }
    const free = bucket.filter((candidate) => takenBy[candidate] !== turn + 1);
    return free[prng.below(free.length)]!;
  }

  function take(p: number, turn: number) {
    const g = groupIndex[p]!;
    const group = groups[g]!;
    const level = load[p]!;
    const bucket = group.buckets[level]!;
    const last = bucket.pop()!;
    if (last !== p) {
      bucket[position[p]!] = last;
      position[last] = position[p]!;
    }
    if (group.buckets.length === level + 1) group.buckets.push([]);
    const next = group.buckets[level + 1]!;
    position[p] = next.length;
    next.push(p);
    load[p] = level + 1;
    takenBy[p] = turn + 1;
    const key = takenKey(g, level + 1);
    takenAt.set(key, (takenAt.get(key) ?? 0) + 1);
  }

  /** Picks up to `count` least-allocated proposals among `allowed` groups; returns how many it picked. */
  function pick(allowed: readonly number[], count: number, turn: number, reviewerIndex: number): number {
    let picked = 0;
    const candidates: { g: number; free: number }[] = [];
    while (picked < count) {
      let best = Infinity;
      let total = 0;
      candidates.length = 0;
      for (const g of allowed) {
        const lowest = lowestFree(g);
        if (!lowest) continue;
        if (lowest.level < best) {
          best = lowest.level;
          candidates.length = 0;
          total = 0;
        }
        if (lowest.level === best) {
          candidates.push({ g, free: lowest.free });
          total += lowest.free;
        }
      }
      if (candidates.length === 0) break;
      // A group in proportion to its free proposals at that level: every least-allocated proposal is equally likely.
      let ticket = prng.below(total);
      let chosen = candidates[0]!;
      for (const candidate of candidates) {
        if (ticket < candidate.free) {
          chosen = candidate;
          break;
        }
        ticket -= candidate.free;
      }
      const p = drawFrom(chosen.g, best, turn);
      take(p, turn);
      pairsReviewer.push(reviewerIndex);
      pairsProposal.push(p);
      picked += 1;
    }
    return picked;
  }

  let lv0 = 0;
  let lv1 = 0;
  for (let turn = 0; turn < order.length; turn += 1) {
    const { reviewer, index } = order[turn]!;
    if (reviewer.level === 0) lv0 += 1;
    else lv1 += 1;
    takenAt.clear();
    const conflicts = new Set(reviewer.conflicts);
    const eligible = conflicts.size === 0 ? allGroups : allGroups.filter((g) => !conflicts.has(groupKeys[g]!));
    const quota = reviewer.level === 0 ? input.quotaLv0 : input.quotaLv1;
    let picked = 0;
    if (reviewer.level === 1 && reviewer.preferred.length > 0) {
      const preferred = new Set(reviewer.preferred);
      const first = eligible.filter((g) => preferred.has(groupKeys[g]!));
      picked += pick(first, quota, turn, index);
    }
    if (picked < quota) picked += pick(eligible, quota - picked, turn, index);
    perReviewer[index] = picked;
  }

  const reviewerIds = new Int32Array(pairsReviewer.length);
  const proposalIds = new Int32Array(pairsProposal.length);
  for (let i = 0; i < pairsReviewer.length; i += 1) {
    reviewerIds[i] = reviewers[pairsReviewer[i]!]!.id;
    proposalIds[i] = proposals[pairsProposal[i]!]!.id;
  }
  return {
    reviewerIds,
    proposalIds,
    perProposal: load,
    perReviewer,
    stats: {
      tot: pairsReviewer.length,
      nr_of_reviewers: { tot: reviewers.length, lv0, lv1 },
      per_reviewer: averages(perReviewer),
      per_proposal: averages(load),
    },
  };
}
