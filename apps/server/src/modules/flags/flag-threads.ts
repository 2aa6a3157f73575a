import { Worker } from 'node:worker_threads';
import {
  computeFlags,
  mergeFlagResults,
  perReviewFlags,
  similarityFlags,
  type FlagInputReview,
  type FlagOptions,
  type FlagResult,
} from '../../domain/flags/compute-flags';

/** Below this many reviews a thread costs more to start than it saves: everything runs on the calling thread. */
export const THREAD_MIN_REVIEWS = 5_000;

/** Profanity and ai_generated in a worker thread; rejects if the thread cannot start or fails. */
export function perReviewFlagsInThread(reviews: readonly FlagInputReview[], aiGeneratedThreshold: number): Promise<FlagResult> {
  return new Promise((resolve, reject) => {
    // A plain module starts the thread (it registers tsx there, then loads per-review-flags.worker.ts).
    const worker = new Worker(new URL('./per-review-flags.thread.mjs', import.meta.url), { workerData: { reviews, aiGeneratedThreshold } });
    worker.once('message', (result: FlagResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The flags thread stopped (exit code ${code}) before answering.`)));
  });
}

/**
 * All three flag types over an event's reviews on two threads (the machine's two cores, issue 14): profanity and
 * ai_generated in a worker while this thread computes similarity; the answer equals `computeFlags`. Small events, and
 * any failure of the thread, stay on this thread.
 */
export async function computeFlagsOnThreads(
  reviews: readonly FlagInputReview[],
  options: FlagOptions & { minReviews?: number; onThreadError?: (error: unknown) => void },
): Promise<FlagResult> {
  if (reviews.length < (options.minReviews ?? THREAD_MIN_REVIEWS)) return computeFlags(reviews, options);
  const perReview = perReviewFlagsInThread(reviews, options.aiGeneratedThreshold).catch((error: unknown) => {
    options.onThreadError?.(error);
    return undefined;
  });
  // Let the thread start (it receives a copy of the notes) before this thread is busy with the similarity.
  await new Promise((resolve) => setImmediate(resolve));
  const similarity = similarityFlags(reviews, options);
  return mergeFlagResults((await perReview) ?? perReviewFlags(reviews, options), similarity);
}
