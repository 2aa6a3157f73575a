import { z } from 'zod';

/** The largest id a PostgreSQL integer column holds; a larger one would make the query fail (500) instead of 422. */
export const MAX_ROW_ID = 2_147_483_647;
/** A row id in a path or query: a positive integer within the database's integer range. */
export const rowId = z.coerce.number().int().min(1).max(MAX_ROW_ID);

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** `?size&page`, page 0-based (ARCHITECTURE.md "Contract details"). */
export const pageQuery = z.object({
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  page: z.coerce.number().int().min(0).default(0),
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
