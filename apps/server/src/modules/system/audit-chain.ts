import crypto, { createHash } from 'node:crypto';

/**
 * The audit log's hash chain (issue 48 item 3; docs/security.md "The audit hash chain"), the pure part.
 *
 * Each entry's hash is the SHA-256 (hex) of the canonical JSON of its header: the entry's id, time, actor, action,
 * entity and event, the SHA-256 of its data (before and after, canonical JSON), the hash of the log's previous entry
 * (`prev_hash`) and the hash of its event's previous entry (`event_prev_hash`). Changing, deleting, inserting or
 * moving any entry changes a hash that a later entry names; the newest hash (the head) names everything before it.
 * The data has a digest of its own so that the open data can carry an event's chain with the data of its runs and
 * only the digest of the rest (docs/open-data.md).
 *
 * Canonical JSON: object keys sorted (JavaScript's default order, by UTF-16 code units), no white space, members whose
 * value is undefined left out, everything else as JSON.stringify writes it. The data is hashed as PostgreSQL's jsonb
 * gives it back (a write hashes `JSON.parse(JSON.stringify(data))`), so that a verification over the stored rows
 * finds the same bytes.
 */
export const AUDIT_CHAIN_VERSION = 1;

export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  // Loops and concatenation rather than map/filter/join: `audit verify` canonicalises a million entries.
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i += 1) text += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${text}}`;
}

// crypto.hash (Node ≥ 20.12): one call, without a Hash object per digest.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
export const sha256Hex = oneShot
  ? (text: string) => oneShot('sha256', text, 'hex')
  : (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What jsonb keeps of a value: what a later read of the row answers. */
export const asStored = (value: unknown): unknown => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown));

export const dataDigest = (before: unknown, after: unknown) => sha256Hex(canonicalJson({ before: before ?? null, after: after ?? null }));

export interface ChainHeader {
  id: number;
  createdAt: Date;
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  eventId: number | null;
  dataSha256: string;
  prevHash: string | null;
  eventPrevHash: string | null;
}

/**
 * The header as hashed: canonicalJson of {v, id, created_at, actor_user_id, action, entity, entity_id, event_id,
 * data_sha256, prev_hash, event_prev_hash}, written out in its sorted key order (the same text; a test holds them
 * equal), since `audit verify` writes a million of them.
 */
const json = (value: string | number | null) => (value === null ? 'null' : JSON.stringify(value));
export const headerJson = (header: ChainHeader) =>
  `{"action":${json(header.action)},"actor_user_id":${json(header.actorUserId)},"created_at":${json(header.createdAt.toISOString())},` +
  `"data_sha256":${json(header.dataSha256)},"entity":${json(header.entity)},"entity_id":${json(header.entityId)},` +
  `"event_id":${json(header.eventId)},"event_prev_hash":${json(header.eventPrevHash)},"id":${json(header.id)},` +
  `"prev_hash":${json(header.prevHash)},"v":${AUDIT_CHAIN_VERSION}}`;

export const entryHash = (header: ChainHeader) => sha256Hex(headerJson(header));

/** A stored entry as the verification reads it. */
export interface StoredEntry extends Omit<ChainHeader, 'dataSha256'> {
  before: unknown;
  after: unknown;
  dataSha256: string | null;
  hash: string | null;
  /**
   * Closing an account erased personal words from its before/after (issue 47): the header, which carries the data's
   * digest as written, still verifies and links; the data no longer matches the digest, and is counted, not checked.
   */
  redacted?: boolean;
}

export interface ChainBreak {
  /** The entry at which the chain stops verifying (for a deleted last entry: the one the head names). */
  entryId: number;
  reason: string;
}

export interface ChainHead {
  chain: number;
  entryId: number;
  hash: string;
}

const short = (hash: string | null) => (hash === null ? 'none' : hash.slice(0, 16));

/**
 * Walks the entries in id order (fed in pages) and stops at the first broken link. Entries without a hash before the
 * first hashed one predate the chain (migration 0019) and are counted, not checked; one without a hash after it is a
 * break. `finish` compares the last entries with the stored heads.
 */
export function createChainWalker() {
  let started = false;
  let legacy = 0;
  let redacted = 0;
  let checked = 0;
  let last: { id: number; hash: string } | null = null;
  const eventLast = new Map<number, { id: number; hash: string }>();
  let broken: ChainBreak | null = null;

  function check(entry: StoredEntry): ChainBreak | null {
    if (entry.hash === null) {
      if (!started) {
        legacy += 1;
        return null;
      }
      return { entryId: entry.id, reason: `entry ${entry.id} has no hash, though the chain began before it: its hash was removed` };
    }
    started = true;
    if (entry.prevHash !== (last?.hash ?? null))
      return {
        entryId: entry.id,
        reason:
          last === null
            ? `entry ${entry.id} names a previous entry (${short(entry.prevHash)}) but is the first of the chain: the entries before it were deleted`
            : `entry ${entry.id} names as previous ${short(entry.prevHash)}, but the entry before it (${last.id}) has ${short(last.hash)}: an entry between them was deleted, inserted or moved`,
      };
    if (entry.redacted) redacted += 1;
    else if (entry.dataSha256 !== dataDigest(entry.before, entry.after))
      return { entryId: entry.id, reason: `entry ${entry.id}: its before or after does not match its data hash: it was edited` };
    const expected = entryHash({ ...entry, dataSha256: entry.dataSha256 ?? '' });
    if (expected !== entry.hash)
      return { entryId: entry.id, reason: `entry ${entry.id}: its hash does not match its content: it was edited or moved` };
    if (entry.eventId !== null) {
      const previous = eventLast.get(entry.eventId) ?? null;
      if (entry.eventPrevHash !== (previous?.hash ?? null))
        return {
          entryId: entry.id,
          reason: `entry ${entry.id}: event ${entry.eventId}'s chain names as previous ${short(entry.eventPrevHash)}, but its entry before (${previous?.id ?? 'none'}) has ${short(previous?.hash ?? null)}: an entry of the event was deleted or moved`,
        };
      eventLast.set(entry.eventId, { id: entry.id, hash: entry.hash });
    } else if (entry.eventPrevHash !== null)
      return { entryId: entry.id, reason: `entry ${entry.id} belongs to no event but names an event's previous entry: it was edited` };
    last = { id: entry.id, hash: entry.hash };
    return null;
  }

  return {
    /** Feeds entries in id order; answers false once the chain is broken (stop feeding). */
    feed(entries: readonly StoredEntry[]): boolean {
      for (const entry of entries) {
        if (broken) return false;
        broken = check(entry);
        if (!broken && entry.hash !== null) checked += 1;
      }
      return broken === null;
    },
    finish(heads: readonly ChainHead[]) {
      if (!broken) {
        const global = heads.find((head) => head.chain === 0);
        if ((global?.hash ?? null) !== (last?.hash ?? null))
          broken = {
            entryId: global?.entryId ?? last?.id ?? 0,
            reason: global
              ? `the head names entry ${global.entryId} (${short(global.hash)}) but the last entry is ${last?.id ?? 'none'}: entries at the end were deleted or the head was changed`
              : `the chain has entries but no head: the head was deleted`,
          };
      }
      if (!broken)
        for (const head of heads) {
          if (head.chain === 0) continue;
          const lastOfEvent = eventLast.get(head.chain);
          if (lastOfEvent?.hash !== head.hash) {
            broken = {
              entryId: head.entryId,
              reason: `event ${head.chain}'s head names entry ${head.entryId} (${short(head.hash)}) but its last entry is ${lastOfEvent?.id ?? 'none'}: entries at the end were deleted or the head was changed`,
            };
            break;
          }
        }
      if (!broken)
        for (const [eventId, lastOfEvent] of eventLast)
          if (!heads.some((head) => head.chain === eventId)) {
            broken = { entryId: lastOfEvent.id, reason: `event ${eventId} has entries but no head: its head was deleted` };
            break;
          }
      return {
        verified: broken === null,
        entries: checked,
        legacy,
        redacted,
        head: last,
        broken,
      };
    },
  };
}
export type ChainReport = ReturnType<ReturnType<typeof createChainWalker>['finish']>;
