import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { dataDigest, entryHash, type ChainRow } from './chain.js';
import { readCsv } from './csv.js';
import {
  appealResult,
  isValid,
  proposalScores,
  reviewerExcluded,
  reviewOutcome,
  sameScore,
  type Outcome,
  type OutcomeParams,
  type ScoredReview,
  type ScoreParams,
} from './rules.js';
import { openZipEntry, readZipDirectory, type ZipEntry } from './zip.js';

export { appealResult, isValid, proposalScores, reviewerExcluded, reviewOutcome } from './rules.js';

/** A figure the verifier could not reproduce: what the archive says and what the rules give. */
export interface Difference {
  figure: string;
  published: string;
  recomputed: string;
}

export interface Report {
  /** Figures checked: review outcomes, reviewer outcomes, appeal results, proposal scores and counts, audit links. */
  figures: number;
  reproduced: number;
  differences: Difference[];
  /** Files that do not match SHA256SUMS or datapackage.json (the archive was changed after it was made). */
  integrity: string[];
}

const OUTCOME_CODES: readonly Outcome[] = ['pending', 'included', 'excluded_moderation', 'excluded_threshold'];

interface RoundJson {
  event: { id: number; name: string };
  runs: { entry_id: number; action: string; params: unknown }[];
  audit: { head: { entry_id: number; hash: string } | null };
}

async function readAll(stream: Readable) {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    chunks.push(chunk);
  }
  const buffer = Buffer.concat(chunks);
  return { text: buffer.toString('utf8'), sha256: hash.digest('hex'), bytes: buffer.length };
}

/** Reads a CSV entry by column name: `onRow(get)` where get(name) answers the row's cell. */
async function readTable(path: string, entry: ZipEntry, columns: readonly string[], onRow: (cells: string[], at: number[]) => void) {
  let at: number[] | null = null;
  return readCsv(await openZipEntry(path, entry), (cells) => {
    if (at === null) {
      at = columns.map((name) => {
        const index = cells.indexOf(name);
        if (index < 0) throw new Error(`${entry.name} has no column ${name}.`);
        return index;
      });
      return;
    }
    onRow(cells, at);
  });
}

const num = (text: string | undefined) => (text === undefined || text === '' ? null : Number(text));

/**
 * Verifies a round's open data (the zip the server's `GET events/{id}/open-data` answers; docs/open-data.md): recomputes
 * every review outcome (from the moderations and the outcomes run's parameters, then the appeals), every reviewer's
 * outcome, every appeal's result, every proposal's scores and counts (from the published review outcomes and the
 * scores run's parameters) and every link of the round's audit chain, and compares each with the published figure.
 * Each figure is checked against its own inputs, so one changed value shows as the figures that depend on it directly.
 */
export async function verifyArchive(path: string): Promise<Report> {
  const entries = await readZipDirectory(path);
  const entryOf = (name: string) => {
    const entry = entries.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`The archive has no ${name}: is it a round's open data?`);
    return entry;
  };
  const digests = new Map<string, { sha256: string; bytes: number }>();
  const small = async (name: string) => {
    const read = await readAll(await openZipEntry(path, entryOf(name)));
    digests.set(name, read);
    return read.text;
  };
  const sums = (await readAll(await openZipEntry(path, entryOf('SHA256SUMS')))).text;
  const round = JSON.parse(await small('round.json')) as RoundJson;
  const dataPackage = JSON.parse(await small('datapackage.json')) as { resources: { path: string; hash?: string; bytes?: number }[] };
  await small('README.txt');

  const lastRun = (action: string) => round.runs.filter((run) => run.action === action).at(-1);
  const outcomesRun = lastRun('reviews.outcomes');
  const scoresRun = lastRun('proposals.scores');
  if (!outcomesRun || !scoresRun) throw new Error('round.json lists no review outcomes run or no proposal scores run.');
  const outcomeParams = outcomesRun.params as OutcomeParams;
  const scoreParams = scoresRun.params as ScoreParams;

  // Reviews, in parallel arrays (a million rows stay small).
  const reviewIndex = new Map<number, number>();
  const rProposal: number[] = [];
  const rReviewer: number[] = [];
  const rLevel: number[] = [];
  const rAllocated: boolean[] = [];
  const rRatings: number[] = [];
  const rOutcome: number[] = [];
  const rIds: number[] = [];
  const reviewerIndex = new Map<string, number>();
  const reviewerNames: string[] = [];
  const table = async (name: string, columns: readonly string[], onRow: (cells: string[], at: number[]) => void) =>
    digests.set(`${name}.csv`, await readTable(path, entryOf(`${name}.csv`), columns, onRow));

  await table(
    'reviews',
    [
      'review_id',
      'proposal_id',
      'reviewer',
      'level',
      'allocated',
      'impact_alignment_rating',
      'feasibility_rating',
      'auditability_rating',
      'outcome',
    ],
    (cells, at) => {
      const id = Number(cells[at[0]!]);
      reviewIndex.set(id, rIds.length);
      rIds.push(id);
      rProposal.push(Number(cells[at[1]!]));
      const reviewer = cells[at[2]!]!;
      let index = reviewerIndex.get(reviewer);
      if (index === undefined) {
        index = reviewerNames.length;
        reviewerIndex.set(reviewer, index);
        reviewerNames.push(reviewer);
      }
      rReviewer.push(index);
      rLevel.push(Number(cells[at[3]!]));
      rAllocated.push(cells[at[4]!] === 'true');
      rRatings.push(Number(cells[at[5]!]), Number(cells[at[6]!]), Number(cells[at[7]!]));
      rOutcome.push(OUTCOME_CODES.indexOf(cells[at[8]!] as Outcome));
    },
  );

  const moderationCount = new Uint32Array(rIds.length);
  const includedCount = new Uint32Array(rIds.length);
  await table('moderations', ['review_id', 'classification'], (cells, at) => {
    const index = reviewIndex.get(Number(cells[at[0]!]));
    if (index === undefined) return;
    moderationCount[index]! += 1;
    if (cells[at[1]!] === 'included') includedCount[index]! += 1;
  });

  const appeals: { id: number; review: number; status: string; needed: number; upholds: number; rejects: number }[] = [];
  const appealById = new Map<number, (typeof appeals)[number]>();
  await table('appeals', ['appeal_id', 'review_id', 'status', 'decisions_needed'], (cells, at) => {
    const appeal = {
      id: Number(cells[at[0]!]),
      review: Number(cells[at[1]!]),
      status: cells[at[2]!]!,
      needed: Number(cells[at[3]!]),
      upholds: 0,
      rejects: 0,
    };
    appeals.push(appeal);
    appealById.set(appeal.id, appeal);
  });
  await table('appeal_decisions', ['appeal_id', 'decision'], (cells, at) => {
    const appeal = appealById.get(Number(cells[at[0]!]));
    if (!appeal) return;
    if (cells[at[1]!] === 'upheld') appeal.upholds += 1;
    else appeal.rejects += 1;
  });

  const publishedReviewer = new Map<string, string>();
  await table('reviewers', ['reviewer', 'outcome'], (cells, at) => publishedReviewer.set(cells[at[0]!]!, cells[at[1]!]!));

  const scoreColumns = [
    'proposal_id',
    'overall',
    'impact',
    'feasibility',
    'value_for_money',
    'nr_reviews',
    'nr_allocated_reviews',
    'nr_included_reviews',
    'nr_excluded_reviews',
    'nr_excluded_by_moderation_reviews',
    'nr_excluded_by_threshold_reviews',
  ] as const;
  const publishedScores: (number | null)[][] = [];
  await table('proposal_scores', scoreColumns, (cells, at) => publishedScores.push(at.map((index) => num(cells[index]))));

  const chain: ChainRow[] = [];
  await table(
    'audit_chain',
    [
      'entry_id',
      'created_at',
      'actor_user_id',
      'action',
      'entity',
      'entity_id',
      'event_id',
      'data_sha256',
      'prev_hash',
      'event_prev_hash',
      'hash',
      'data',
    ],
    (cells, at) => {
      const [id, created, actor, action, entity, entityId, event, data256, prev, eventPrev, hash, data] = at.map(
        (index) => cells[index] ?? '',
      );
      chain.push({
        entry_id: Number(id),
        created_at: created!,
        actor_user_id: actor === '' ? null : Number(actor),
        action: action!,
        entity: entity!,
        entity_id: entityId === '' ? null : entityId!,
        event_id: Number(event),
        data_sha256: data256!,
        prev_hash: prev === '' ? null : prev!,
        event_prev_hash: eventPrev === '' ? null : eventPrev!,
        hash: hash!,
        data: data === '' ? null : data!,
      });
    },
  );
  await table('proposals', ['proposal_id'], () => {});

  // Integrity: every file against SHA256SUMS and datapackage.json.
  const integrity: string[] = [];
  const listed = new Map(
    sums
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(66), line.slice(0, 64)] as const),
  );
  for (const [name, digest] of digests) {
    if (listed.get(name) !== digest.sha256) integrity.push(`${name} does not match its SHA-256 in SHA256SUMS`);
    const resource = dataPackage.resources.find((candidate) => candidate.path === name);
    if (resource && resource.hash !== `sha256:${digest.sha256}`) integrity.push(`${name} does not match its hash in datapackage.json`);
  }
  for (const name of listed.keys()) if (!digests.has(name)) integrity.push(`${name} is listed in SHA256SUMS but was not read`);

  let figures = 0;
  const differences: Difference[] = [];
  const check = (figure: string, published: unknown, recomputed: unknown, same = published === recomputed) => {
    figures += 1;
    if (!same) differences.push({ figure, published: String(published ?? 'none'), recomputed: String(recomputed ?? 'none') });
  };

  // Reviewers: moderated and valid reviews, and whether the threshold excludes them.
  const moderated = new Uint32Array(reviewerNames.length);
  const valid = new Uint32Array(reviewerNames.length);
  const reviewValid: boolean[] = new Array<boolean>(rIds.length);
  for (let i = 0; i < rIds.length; i += 1) {
    reviewValid[i] = isValid(includedCount[i]!, moderationCount[i]!, outcomeParams);
    if (moderationCount[i]! > 0) {
      moderated[rReviewer[i]!]! += 1;
      if (reviewValid[i]) valid[rReviewer[i]!]! += 1;
    }
  }
  const excluded = reviewerNames.map((_, index) => reviewerExcluded(moderated[index]!, valid[index]!, outcomeParams));

  // Appeals: their results from their decisions.
  const upheldReviews = new Set<number>();
  for (const appeal of appeals) {
    const result = appealResult(appeal.upholds, appeal.rejects, appeal.needed);
    if (result === 'upheld') upheldReviews.add(appeal.review);
    check(`appeal ${appeal.id} status`, appeal.status, result === 'undecided' ? 'closed' : result);
  }

  for (let i = 0; i < rIds.length; i += 1) {
    const expected = upheldReviews.has(rIds[i]!) ? 'included' : reviewOutcome(reviewValid[i]!, excluded[rReviewer[i]!]!);
    check(`review ${rIds[i]} outcome`, OUTCOME_CODES[rOutcome[i]!] ?? 'unknown', expected);
  }
  for (const [index, name] of reviewerNames.entries())
    check(`reviewer ${name} outcome`, publishedReviewer.get(name) ?? 'missing', excluded[index] ? 'excluded_threshold' : 'accepted');

  // Proposal scores and counts from the published review outcomes.
  const byProposal = new Map<number, number[]>();
  for (let i = 0; i < rIds.length; i += 1) {
    let list = byProposal.get(rProposal[i]!);
    if (!list) byProposal.set(rProposal[i]!, (list = []));
    list.push(i);
  }
  for (const row of publishedScores) {
    const proposal = row[0]!;
    const own = byProposal.get(proposal) ?? [];
    const included: ScoredReview[] = [];
    const counts = { allocated: 0, included: 0, byModeration: 0, byThreshold: 0 };
    for (const i of own) {
      if (rAllocated[i]) counts.allocated += 1;
      const outcome = OUTCOME_CODES[rOutcome[i]!];
      if (outcome === 'included') {
        counts.included += 1;
        included.push({
          allocated: rAllocated[i]!,
          level: rLevel[i]!,
          impact: rRatings[i * 3]!,
          feasibility: rRatings[i * 3 + 1]!,
          valueForMoney: rRatings[i * 3 + 2]!,
        });
      } else if (outcome === 'excluded_moderation') counts.byModeration += 1;
      else if (outcome === 'excluded_threshold') counts.byThreshold += 1;
    }
    const scores = proposalScores(included, scoreParams);
    const names = ['overall', 'impact', 'feasibility', 'value_for_money'] as const;
    for (const [k, name] of names.entries()) {
      const published = row[k + 1] ?? null;
      const recomputed = scores ? scores[name] : null;
      check(
        `proposal ${proposal} ${name}`,
        published,
        recomputed === null ? null : Math.round(recomputed * 10_000) / 10_000,
        published === null || recomputed === null ? published === recomputed : sameScore(published, recomputed),
      );
    }
    const expectedCounts = [
      own.length,
      counts.allocated,
      counts.included,
      counts.byModeration + counts.byThreshold,
      counts.byModeration,
      counts.byThreshold,
    ];
    for (const [k, expected] of expectedCounts.entries()) check(`proposal ${proposal} ${scoreColumns[k + 5]}`, row[k + 5], expected);
  }

  // The round's audit chain: every entry's hash and data digest, every link, the head; the runs' parameters.
  let previous: ChainRow | null = null;
  for (const row of chain) {
    const problems: string[] = [];
    if (row.data !== null && dataDigest(row.data) !== row.data_sha256) problems.push('data does not match data_sha256');
    if (entryHash(row) !== row.hash) problems.push('hash does not match its header');
    if (row.event_prev_hash !== (previous?.hash ?? null))
      problems.push(`event_prev_hash is not entry ${previous?.entry_id ?? 'none'}'s hash`);
    check(`audit entry ${row.entry_id}`, problems.length === 0 ? 'linked' : problems.join('; '), 'linked');
    previous = row;
  }
  check('audit head', round.audit.head?.hash ?? null, chain.at(-1)?.hash ?? null);
  for (const run of round.runs) {
    const row = chain.find((entry) => entry.entry_id === run.entry_id);
    if (!row || row.data === null) continue;
    const after = (JSON.parse(row.data) as { after?: { params?: unknown } }).after;
    check(`run ${run.entry_id} (${run.action}) parameters`, JSON.stringify(run.params), JSON.stringify(after?.params ?? null));
  }

  return { figures, reproduced: figures - differences.length, differences, integrity };
}

/** The report as the command prints it. */
export function formatReport(report: Report): string[] {
  const lines = report.integrity.map((problem) => `Integrity: ${problem}`);
  for (const difference of report.differences)
    lines.push(`Not reproduced: ${difference.figure}: published ${difference.published}, recomputed ${difference.recomputed}`);
  lines.push(`${report.reproduced}/${report.figures} figures reproduced`);
  return lines;
}
