import { createStore, del, get, set } from 'idb-keyval';
import { create } from 'zustand';
import { api } from '../../lib/api-client';
import { isApiError } from '../../lib/api-error';

/**
 * The offline outbox (issue 29 item 1): review writes made without a connection wait here (IndexedDB, so a closed tab
 * or a reload keeps them) and are sent when the connection returns — in the order they were made, each at most once:
 * each carries its own idempotency key, which the server honours, so a retry after an answer lost on the way never
 * writes twice. A write the server refuses on return (window closed, allocation removed, a rule) stays here with the
 * server's message until the reviewer dismisses it; the form's draft stays in the browser meanwhile.
 */

export type OutboxKind = 'create' | 'update' | 'delete';

export interface OutboxEntry {
  /** The idempotency key of the write. */
  id: string;
  /** Whose write it is: only their session sends it. */
  userId: string;
  proposalId: number;
  proposalTitle: string;
  kind: OutboxKind;
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  createdAt: string;
  state: 'waiting' | 'refused';
  /** The server's message, for a refused write. */
  message?: string;
}

const store = typeof indexedDB === 'undefined' ? undefined : createStore('community-review-offline', 'outbox');
const KEY = 'entries';

interface OutboxState {
  entries: OutboxEntry[];
  sending: boolean;
  loaded: boolean;
}

export const useOutbox = create<OutboxState>(() => ({ entries: [], sending: false, loaded: false }));

async function persist(entries: OutboxEntry[]) {
  useOutbox.setState({ entries });
  if (!store) return;
  if (entries.length === 0) await del(KEY, store);
  else await set(KEY, entries, store);
}

/** Reads the outbox kept in the browser (once, at start). */
export async function loadOutbox() {
  const entries = store ? ((await get<OutboxEntry[]>(KEY, store)) ?? []) : [];
  useOutbox.setState({ entries, loaded: true });
}

/** Whether a failed call never reached the server (no connection), as opposed to an answer from it. */
export const isOffline = (error: unknown) => !isApiError(error) && (error instanceof TypeError || !navigator.onLine);

/** A new write's idempotency key: sent with it online, kept with it when it is queued (the same write, the same key). */
export const newWriteKey = () => `review-${crypto.randomUUID()}`;

export async function enqueue(entry: Omit<OutboxEntry, 'createdAt' | 'state'>): Promise<OutboxEntry> {
  const queued: OutboxEntry = { ...entry, createdAt: new Date().toISOString(), state: 'waiting' };
  await persist([...useOutbox.getState().entries, queued]);
  return queued;
}

export async function dismiss(id: string) {
  await persist(useOutbox.getState().entries.filter((entry) => entry.id !== id));
}

export interface FlushResult {
  sent: OutboxEntry[];
  refused: OutboxEntry[];
}

/**
 * Sends the user's waiting writes in order. Stops at the first that cannot reach the server (still offline: it and
 * those after it wait); a refusal is kept with its message and the next one is tried.
 */
export async function flushOutbox(userId: string): Promise<FlushResult> {
  const result: FlushResult = { sent: [], refused: [] };
  if (useOutbox.getState().sending) return result;
  useOutbox.setState({ sending: true });
  try {
    for (const entry of useOutbox.getState().entries) {
      if (entry.state !== 'waiting' || entry.userId !== userId) continue;
      try {
        await api(entry.path, { method: entry.method, body: entry.body, headers: { 'idempotency-key': entry.id } });
        await persist(useOutbox.getState().entries.filter((item) => item.id !== entry.id));
        result.sent.push(entry);
      } catch (error) {
        if (!isApiError(error)) break;
        const refused: OutboxEntry = { ...entry, state: 'refused', message: error.serverMessage ?? error.message };
        await persist(useOutbox.getState().entries.map((item) => (item.id === entry.id ? refused : item)));
        result.refused.push(refused);
      }
    }
  } finally {
    useOutbox.setState({ sending: false });
  }
  return result;
}

/** Thrown by a review write that could not reach the server and waits in the outbox. */
export class QueuedOffline extends Error {
  constructor(readonly entry: OutboxEntry) {
    super('Queued until the connection returns.');
  }
}

/**
 * Sends a review write with its idempotency key; when it cannot reach the server it is queued (with the same key)
 * and QueuedOffline is thrown, so that the caller keeps its draft and says the write is waiting.
 */
export async function sendOrQueue<T>(
  write: Pick<OutboxEntry, 'kind' | 'method' | 'path' | 'body' | 'proposalId' | 'proposalTitle' | 'userId'>,
): Promise<T> {
  const id = newWriteKey();
  try {
    return await api<T>(write.path, { method: write.method, body: write.body, headers: { 'idempotency-key': id } });
  } catch (error) {
    if (!isOffline(error)) throw error;
    throw new QueuedOffline(await enqueue({ ...write, id }));
  }
}
