import { parentPort, workerData } from 'node:worker_threads';
import { perReviewFlags, type FlagInputReview } from '../../domain/flags/compute-flags';

/** A worker thread's part of "Compute flags": profanity and ai_generated while the main thread finds similarities. */
const { reviews, aiGeneratedThreshold } = workerData as { reviews: FlagInputReview[]; aiGeneratedThreshold: number };
parentPort!.postMessage(perReviewFlags(reviews, { aiGeneratedThreshold }));
