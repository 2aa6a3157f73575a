import { z } from 'zod';
import { rowId } from './common';

/**
 * Issue 48: the open data of a finished round (`GET events/{id}/open-data`, public), what its page shows
 * (`GET events/{id}/open-data/info`), and the audit chain's state for the admin's audit tab
 * (`GET admin/audit/chain/`).
 */

export const openDataParams = z.object({ id: rowId });

/** The open data's page: whether the archive is there yet (the event's proposal scores have run) and its name. */
export const openDataInfo = z.object({
  event_id: z.number().int(),
  event_name: z.string(),
  available: z.boolean(),
  /** The archive's file name, e.g. `round-3-open-data.zip`. */
  file_name: z.string(),
  /** The head of the round's audit chain (the hash of its newest entry), null when it has none. */
  audit_head: z.string().nullable(),
});
export type OpenDataInfo = z.infer<typeof openDataInfo>;

/** `GET events/open-data/`: the rounds whose open data is published (their proposal scores have run), newest first. */
export const openDataRound = z.object({
  event_id: z.number().int(),
  event_name: z.string(),
  /** The round's end (ISO 8601), null when it has none. */
  end_time: z.string().nullable(),
  file_name: z.string(),
});
export const openDataRounds = z.array(openDataRound);
export type OpenDataRound = z.infer<typeof openDataRound>;

export const openDataMessages = {
  notYet: 'The open data of this round is published once its proposal scores have run.',
  busy: 'The open data is being prepared for other downloads. Please try again in a minute.',
};

/** `GET admin/audit/chain/`: whether the whole log's hash chain verifies, its head and the first broken link. */
export const auditChainStatus = z.object({
  verified: z.boolean(),
  /** Entries checked (those written before the chain began are not). */
  entries: z.number().int(),
  /** Entries written before the chain began (migration 0019), not covered by it. */
  legacy: z.number().int(),
  /** Entries whose personal words were erased when an account closed (issue 47): linked and hashed, data not checked. */
  redacted: z.number().int(),
  head: z.object({ entry_id: z.number().int(), hash: z.string() }).nullable(),
  broken: z.object({ entry_id: z.number().int(), reason: z.string() }).nullable(),
  /** When this verification ran (the answer is kept a short while: a whole walk of a large log takes seconds). */
  checked_at: z.string(),
});
export type AuditChainStatus = z.infer<typeof auditChainStatus>;

/** The verifier's package and command (the page says how to run it). */
export const VERIFIER_PACKAGE = '@community-review/verify';
