import { createHash } from 'node:crypto';

/**
 * The audit hash chain's rules (docs/security.md "The audit hash chain"): canonical JSON (object keys sorted, no
 * white space, undefined members left out) and SHA-256 in hex. An entry's hash covers its header; its data
 * (before, after) has a digest of its own, which the header carries.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface ChainRow {
  entry_id: number;
  created_at: string;
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  event_id: number;
  data_sha256: string;
  prev_hash: string | null;
  event_prev_hash: string | null;
  hash: string;
  /** {before, after} as JSON, or null when only its digest is published. */
  data: string | null;
}

export function entryHash(row: ChainRow): string {
  return sha256Hex(
    canonicalJson({
      v: 1,
      id: row.entry_id,
      created_at: row.created_at,
      actor_user_id: row.actor_user_id,
      action: row.action,
      entity: row.entity,
      entity_id: row.entity_id,
      event_id: row.event_id,
      data_sha256: row.data_sha256,
      prev_hash: row.prev_hash,
      event_prev_hash: row.event_prev_hash,
    }),
  );
}

export function dataDigest(data: string): string {
  const { before, after } = JSON.parse(data) as { before?: unknown; after?: unknown };
  return sha256Hex(canonicalJson({ before: before ?? null, after: after ?? null }));
}
