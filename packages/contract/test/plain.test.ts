import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as plain from '../src/plain';
import * as reviews from '../src/reviews';
import * as subscriptions from '../src/subscriptions';
import * as moderations from '../src/moderations';
import * as appeals from '../src/appeals';
import * as rules from '../src/rules';

// The web app's pages read their constants and small rules from plain.ts, so that zod (21 KB compressed) stays out of
// their first load (issues 16 and 30 item 5): it must import no module at run time.
describe('plain.ts', () => {
  it('imports nothing but types', () => {
    const source = readFileSync(new URL('../src/plain.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import\s+(?!type\b)[^;]*;/gm)].map((match) => match[0]);
    expect(imports).toEqual([]);
  });

  it('is what the schema modules export under the same names', () => {
    expect(reviews.ReviewRanking).toBe(plain.ReviewRanking);
    expect(reviews.rankingLabel).toBe(plain.rankingLabel);
    expect(subscriptions.levelLabel).toBe(plain.levelLabel);
    expect(subscriptions.excludedReviews).toBe(plain.excludedReviews);
    expect(moderations.reasonsFor).toBe(plain.reasonsFor);
    expect(appeals.appealReasonsFor).toBe(plain.appealReasonsFor);
    expect(rules.isCatalystId).toBe(plain.isCatalystId);
  });
});
