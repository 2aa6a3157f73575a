import type { ReviewFile, ReviewFileResult } from '@cr/contract/review-files';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/** Issue 29 item 2: the caller's allocation as a file (saved under the server's name). */
export function downloadReviewFile(format: 'json' | 'markdown') {
  return api<void>('proposal-reviews/review-file/', { query: { format }, download: true });
}

/** The filled file back: a dry run (changes nothing) or the real run (what it writes makes the lists stale). */
export function useUploadReviewFile() {
  return useInvalidatingMutation('uploadReviewFile', {
    mutationFn: ({ file, dryRun }: { file: ReviewFile; dryRun: boolean }) =>
      api<ReviewFileResult>('proposal-reviews/review-file/', { method: 'POST', body: { review_file: file, dry_run: dryRun } }),
    changedNothing: (result) => result.dry_run || result.created.length + result.updated.length === 0,
  });
}
