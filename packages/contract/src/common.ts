import { z } from 'zod';
import { messages } from './rules';

/** The largest id a PostgreSQL integer column holds; a larger one would make the query fail (500) instead of 422. */
export const MAX_ROW_ID = 2_147_483_647;

/** A whole number as a path or query parameter writes it: decimal digits, no sign, no leading zero. */
const DECIMAL_INTEGER = /^(0|[1-9][0-9]*)$/;

/**
 * Reads a number from a path or query parameter (text) only when it is written as plain decimal digits (issue 26
 * item 5): `z.coerce` read `0x1`, `1e0`, ` 1`, `01.0` and `+1` as 1 too, so `DELETE proposal-reviews/%201/`
 * deleted review 1. Any other text stays text, which the number schema after it refuses (422).
 */
export const fromDecimalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value), schema);

/**
 * The one bounded id rule (issue 13 item 4): every id in every request is a whole number from 1 to MAX_ROW_ID.
 * `rowId` reads it from a path or query parameter, which is text; `bodyRowId` from a JSON body, where it must already
 * be a number — `true`, `"1"` and `[1]` are refused, not read as 1 (issue 13 item 12).
 */
const idIssue = (issue: { input?: unknown }) => (issue.input === undefined ? messages.required : messages.id);
export const rowId = fromDecimalText(
  z.number({ error: idIssue }).int({ error: messages.id }).min(1, { error: messages.id }).max(MAX_ROW_ID, { error: messages.id }),
);
export const bodyRowId = z
  .number({ error: idIssue })
  .int({ error: messages.id })
  .min(1, { error: messages.id })
  .max(MAX_ROW_ID, { error: messages.id });

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** The last page any list may ask for: beyond it the row offset would leave the database's range (a 500). */
export const MAX_PAGE = Math.floor(MAX_ROW_ID / MAX_PAGE_SIZE);

/** `?size&page`, page 0-based (docs/architecture.md "Three packages"). */
export const pageQuery = z.object({
  size: fromDecimalText(z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
  page: fromDecimalText(z.number().int().min(0).max(MAX_PAGE).default(0)),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const pageInfo = z.object({ total: z.number().int(), size: z.number().int(), page: z.number().int() });
export type PageInfo = z.infer<typeof pageInfo>;

export function paged<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), page: pageInfo });
}
export type Paged<T> = { data: T[]; page: PageInfo };

export const errorBody = z.object({ message: z.string() });
export const validationErrorItem = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationErrorItem = z.infer<typeof validationErrorItem>;
export const validationErrorBody = z.object({ detail: z.array(validationErrorItem) });

export const okBody = z.boolean();
