import { describe, expect, it } from 'vitest';
import { readFlagsFile } from './flags-file';

describe("readFlagsFile (issue 14 item 1: an outside tool's flags, checked before they travel)", () => {
  it('reads a valid file with the defaults of the contract', () => {
    expect(
      readFlagsFile(
        '[{"review_id": 3, "flag_type": 1, "score": 0.9, "related_reviews": [4], "related_criteria": ["impact_note"]}, {"review_id": 5, "flag_type": 0, "score": 1}]',
      ),
    ).toEqual({
      ok: true,
      flags: [
        { review_id: 3, flag_type: 1, score: 0.9, related_reviews: [4], related_criteria: ['impact_note'] },
        { review_id: 5, flag_type: 0, score: 1, related_reviews: [], related_criteria: null },
      ],
    });
  });

  it('refuses text that is not JSON', () => {
    expect(readFlagsFile('{not json')).toEqual({ ok: false, error: 'notJson' });
  });

  it('refuses a JSON file of another shape, naming where', () => {
    const read = readFlagsFile('[{"review_id": 3, "flag_type": 7, "score": 0.5}]');
    expect(read.ok).toBe(false);
    expect(read).toMatchObject({ error: 'notFlags', detail: expect.stringContaining('0.flag_type') });
    expect(readFlagsFile('[{"review_id": 3, "flag_type": 1, "score": 2}]')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('0.score'),
    });
    expect(readFlagsFile('{"flags": []}')).toMatchObject({ ok: false, error: 'notFlags' });
  });
});
