import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/chain';
import { readCsv } from '../src/csv';
import { appealResult, atLeast, isValid, proposalScores, reviewerExcluded, reviewOutcome, sameScore } from '../src/rules';

// Issue 48 item 2: the verifier's rules, from the published rules (spec §3, §5, the appeals rules); the planted and
// full-size rounds against the server are in apps/server/test/open-data.test.ts and bench/open-data.bench.ts.

const params = { validity_threshold: 0.5, acceptance_threshold: 0.7, minimum_sample: 10 };

describe('the published rules', () => {
  it('a moderated review is valid at the threshold exactly (a tie at 0.5 included); an unmoderated one is valid', () => {
    expect(isValid(0, 0, params)).toBe(true);
    expect(isValid(1, 2, params)).toBe(true);
    expect(isValid(1, 3, params)).toBe(false);
    // 7 of 10 at 0.7: no floating-point rounding may turn it into an exclusion.
    expect(atLeast(7, 10, 0.7)).toBe(true);
    expect(atLeast(6, 10, 0.7)).toBe(false);
  });

  it('a reviewer is excluded below the acceptance threshold only with the minimum sample; threshold before moderation', () => {
    expect(reviewerExcluded(10, 6, params)).toBe(true);
    expect(reviewerExcluded(10, 7, params)).toBe(false);
    expect(reviewerExcluded(9, 0, params)).toBe(false);
    expect(reviewOutcome(false, true)).toBe('excluded_threshold');
    expect(reviewOutcome(false, false)).toBe('excluded_moderation');
    expect(reviewOutcome(true, false)).toBe('included');
  });

  it('an appeal is upheld by more than N/2, rejected by at least N/2, else undecided', () => {
    expect(appealResult(2, 1, 3)).toBe('upheld');
    expect(appealResult(1, 2, 3)).toBe('rejected');
    expect(appealResult(1, 0, 3)).toBe('undecided');
    expect(appealResult(1, 1, 2)).toBe('rejected');
    expect(appealResult(1, 0, 1)).toBe('upheld');
  });

  it('scores: each group shares its weight, times the level weight; an empty group leaves all to the other', () => {
    const weights = { allocation_weights: { allocated: 0.8, not_allocated: 0.2 }, level_weights: { level_0: 1, level_1: 1 } };
    const review = (allocated: boolean, rating: number, level = 0) => ({
      allocated,
      level,
      impact: rating,
      feasibility: rating,
      valueForMoney: rating,
    });
    expect(proposalScores([review(true, 5), review(true, 3), review(false, 1)], weights)!.impact).toBeCloseTo(3.4, 10);
    expect(proposalScores([review(false, 2), review(false, 4)], weights)!.overall).toBeCloseTo(3, 10);
    expect(proposalScores([], weights)).toBeNull();
    const levels = { ...weights, level_weights: { level_0: 1, level_1: 0.5 } };
    expect(proposalScores([review(false, 5, 0), review(false, 2, 1)], levels)!.impact).toBeCloseTo(4, 10);
    expect(sameScore(3.4, 3.40004)).toBe(true);
    expect(sameScore(3.4, 3.4001)).toBe(false);
  });
});

describe('the readers', () => {
  it('reads RFC 4180 CSV across chunk boundaries: quotes, doubled quotes, commas and line breaks in cells, CRLF', async () => {
    const text = 'a,b,c\r\n1,"x, ""y""\r\nz",\r\n2,plain,"é"\r\n';
    const rows: string[][] = [];
    const chunks = [...Buffer.from(text)].map((byte) => Buffer.from([byte]));
    const { bytes } = await readCsv(Readable.from(chunks), (cells) => rows.push(cells));
    expect(rows).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, "y"\r\nz', ''],
      ['2', 'plain', 'é'],
    ]);
    expect(bytes).toBe(Buffer.byteLength(text));
  });

  it('canonical JSON sorts keys at every depth and writes no white space', () => {
    expect(canonicalJson({ z: [{ b: 1, a: null }], a: 'x' })).toBe('{"a":"x","z":[{"a":null,"b":1}]}');
  });
});
