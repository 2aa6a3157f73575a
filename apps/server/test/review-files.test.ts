import { beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_FILE_FORMAT, reviewFileMessages, type ReviewFile, type ReviewFileResult } from '@cr/contract/review-files';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { reviewFields, type TestEvent, type TestProposal, type TestReviewer } from './world-fixtures';

// Issue 29 item 2: the allocation as a file to review offline, and the filled file back: validated like the form
// (each error names the proposal and the field), a dry run, then a real run that never overwrites a newer online edit.

const note = (word: string) => `${word} `.repeat(60).trim();

describe.each(databaseKinds)('offline review files on %s', (kind) => {
  const ctx = useTestApp(kind);
  let event: TestEvent;
  let reviewer: TestReviewer;
  let proposals: TestProposal[];

  const download = (format?: 'json' | 'markdown') =>
    ctx.app.inject({
      method: 'GET',
      url: `${API}/proposal-reviews/review-file/${format ? `?format=${format}` : ''}`,
      headers: reviewer.auth,
    });
  const upload = (file: ReviewFile, dryRun: boolean) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/review-file/`,
      headers: reviewer.auth,
      payload: { review_file: file, dry_run: dryRun },
    });
  const fileNow = async () => (await download()).json() as ReviewFile;
  const fill = (file: ReviewFile, proposalId: number, word: string, rating = 4) => {
    const entry = file.reviews.find((item) => item.proposal_id === proposalId)!;
    Object.assign(entry, reviewFields({ impact_alignment_note: note(word), feasibility_note: note(word), auditability_note: note(word) }), {
      impact_alignment_rating_given: rating,
    });
  };

  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    reviewer = await ctx.newReviewer(event);
    proposals = [];
    for (let i = 0; i < 4; i += 1) proposals.push(await ctx.newProposal(event));
    for (const proposal of proposals.slice(0, 3)) await ctx.newAllocation(reviewer, proposal);
  });

  it('downloads the allocation as documented JSON (an empty form each) and as Markdown to read', async () => {
    const response = await download();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('my-allocation.json');
    const file = response.json() as ReviewFile;
    expect(file).toMatchObject({ format: REVIEW_FILE_FORMAT, version: 1 });
    expect(file.reviews.map((entry) => entry.proposal_id)).toEqual(proposals.slice(0, 3).map((proposal) => proposal.id));
    expect(file.reviews[0]).toMatchObject({
      proposal_title: proposals[0]!.title,
      proposal_url: `http://app.test/proposal/${proposals[0]!.id}`,
      review_id: null,
      base_version: null,
      impact_alignment_rating_given: null,
      impact_alignment_note: '',
    });
    const markdown = await download('markdown');
    expect(markdown.headers['content-type']).toContain('text/markdown');
    expect(markdown.body).toContain(`## ${proposals[0]!.title}`);
    expect(markdown.body).toContain('Not reviewed yet.');
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/review-file/` })).statusCode).toBe(401);
  });

  it('a dry run plans, writes nothing; the real run creates; a second upload of the same file changes nothing', async () => {
    const file = await fileNow();
    fill(file, proposals[0]!.id, 'first');
    fill(file, proposals[1]!.id, 'second');
    const dry = await upload(file, true);
    expect(dry.statusCode, dry.body).toBe(200);
    const plan = dry.json() as ReviewFileResult;
    expect(plan.created.map((item) => item.proposal_id)).toEqual([proposals[0]!.id, proposals[1]!.id]);
    expect(plan.skipped.map((item) => item.proposal_id)).toEqual([proposals[2]!.id]);
    expect((await fileNow()).reviews.every((entry) => entry.review_id === null)).toBe(true);

    const real = (await upload(file, false)).json() as ReviewFileResult;
    expect(real.created.map((item) => item.proposal_id)).toEqual([proposals[0]!.id, proposals[1]!.id]);
    expect(real.created.every((item) => item.review_id !== null)).toBe(true);
    const after = await fileNow();
    expect(after.reviews[0]).toMatchObject({ base_version: 1, impact_alignment_note: note('first') });
    // The old file again: those reviews exist now, made after the file: conflicts, nothing written twice.
    const again = (await upload(file, false)).json() as ReviewFileResult;
    expect(again.created).toEqual([]);
    expect(again.conflicts.map((item) => item.message)).toEqual([reviewFileMessages.existsOnline, reviewFileMessages.existsOnline]);
    // The new file unchanged: nothing to do.
    expect(((await upload(after, false)).json() as ReviewFileResult).unchanged).toHaveLength(2);
  });

  it('updates a review still at the file’s version; never overwrites one edited online since (a conflict)', async () => {
    const file = await fileNow();
    fill(file, proposals[0]!.id, 'revised', 2);
    fill(file, proposals[1]!.id, 'revised', 2);
    // Meanwhile the second review is edited online.
    const second = file.reviews.find((entry) => entry.proposal_id === proposals[1]!.id)!;
    const online = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/proposal-reviews/${second.review_id}/`,
      headers: reviewer.auth,
      payload: { proposal_review_update: reviewFields({ feasibility_note: note('online') }) },
    });
    expect(online.statusCode, online.body).toBe(200);
    const result = (await upload(file, false)).json() as ReviewFileResult;
    expect(result.updated.map((item) => item.proposal_id)).toEqual([proposals[0]!.id]);
    expect(result.conflicts).toEqual([
      { proposal_id: proposals[1]!.id, proposal_title: proposals[1]!.title, message: reviewFileMessages.changedOnline(2, 1) },
    ]);
    const now = await fileNow();
    expect(now.reviews[0]).toMatchObject({ base_version: 2, impact_alignment_rating_given: 2, impact_alignment_note: note('revised') });
    expect(now.reviews[1]).toMatchObject({ base_version: 2, feasibility_note: note('online') });
  });

  it('writes the entries’ messages in the request’s language (issue 31)', async () => {
    const file = await fileNow();
    const third = file.reviews.find((entry) => entry.proposal_id === proposals[2]!.id)!;
    Object.assign(third, { impact_alignment_rating_given: 9 });
    file.reviews.push({ ...third, proposal_id: proposals[3]!.id, proposal_title: 'not mine' });
    const inJapanese = (dryRun: boolean) =>
      ctx.app.inject({
        method: 'POST',
        url: `${API}/proposal-reviews/review-file/`,
        headers: { ...reviewer.auth, 'accept-language': 'ja' },
        payload: { review_file: file, dry_run: dryRun },
      });
    const dry = (await inJapanese(true)).json() as ReviewFileResult;
    expect(dry.errors.find((error) => error.field === 'proposal_id')!.message).toBe('この提案は、現在のラウンドで割り当てられていません。');
    expect(dry.errors.find((error) => error.field === 'impact_alignment_rating_given')!.message).toBe('評価は1〜5の範囲にしてください');
    const real = await inJapanese(false);
    expect(real.statusCode).toBe(422);
    expect(real.json().detail.map((item: { msg: string }) => item.msg)).toContain(
      `${proposals[2]!.title} — 評価は1〜5の範囲にしてください`,
    );
  });

  it('names the proposal and the field of each error; a real run with errors writes nothing (422)', async () => {
    const file = await fileNow();
    const third = file.reviews.find((entry) => entry.proposal_id === proposals[2]!.id)!;
    Object.assign(third, { impact_alignment_rating_given: 9, impact_alignment_note: 'too short', feasibility_note: note('ok') });
    file.reviews.push({ ...third, proposal_id: proposals[3]!.id, proposal_title: 'not mine' });
    const dry = (await upload(file, true)).json() as ReviewFileResult;
    const errors = dry.errors.map((error) => [error.proposal_id, error.field]);
    expect(errors).toEqual(
      expect.arrayContaining([
        [proposals[2]!.id, 'impact_alignment_rating_given'],
        [proposals[2]!.id, 'impact_alignment_note'],
        [proposals[2]!.id, 'auditability_rating_given'],
        [proposals[3]!.id, 'proposal_id'],
      ]),
    );
    expect(dry.errors.find((error) => error.field === 'proposal_id')!.message).toBe(reviewFileMessages.notAllocated);
    const real = await upload(file, false);
    expect(real.statusCode).toBe(422);
    expect(real.json().detail[0].msg).toContain(proposals[2]!.title);
    expect((await fileNow()).reviews.find((entry) => entry.proposal_id === proposals[2]!.id)!.review_id).toBeNull();
    // A file that is not a review file.
    const wrong = await upload({ ...file, format: 'something-else' } as unknown as ReviewFile, true);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'review_file', 'format']);
  });

  it('API tokens: reading the file needs read, uploading needs review', async () => {
    const make = async (scopes: string[]) =>
      (
        await ctx.app.inject({
          method: 'POST',
          url: `${API}/users/me/tokens/`,
          headers: reviewer.auth,
          payload: { new_api_token: { name: 'files', scopes, expires_in_days: 1 } },
        })
      ).json().token as string;
    const read = await make(['read']);
    const file = (
      await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/review-file/`, headers: { authorization: `Bearer ${read}` } })
    ).json() as ReviewFile;
    expect(file.reviews).toHaveLength(3);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/review-file/`,
      headers: { authorization: `Bearer ${read}` },
      payload: { review_file: file, dry_run: true },
    });
    expect(refused.statusCode).toBe(403);
    const review = await make(['review']);
    const allowed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/review-file/`,
      headers: { authorization: `Bearer ${review}` },
      payload: { review_file: file, dry_run: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});
