import { brotliDecompressSync } from 'node:zlib';
import { decode, Tag } from 'cbor2';
import type { ImportFile, ProposalDocument } from '@cr/contract/proposals';
import { OutboundRefused } from '../lib/outbound';

/**
 * Reads proposals from a Catalyst Gateway (v1 API; DOMAIN.md "Import and export"): the document index lists the
 * proposal documents and their versions, each document is fetched as a COSE_Sign structure (CBOR) whose protected
 * header carries the metadata (type, id, ver, template, parameters = category, collaborators, content encoding) and
 * whose payload is the JSON proposal, Brotli-compressed when the header says 'br'. Authors are the signers' Catalyst
 * IDs (the `kid` of each signature). Templates are documents too, fetched the same way. The result is the upload
 * file's shape, so both sources share one import path.
 */

export const PROPOSAL_DOCUMENT_TYPE = '7808d2ba-d511-40af-84e8-c0d1625fdfdc';
const PAGE_LIMIT = 100;
const PARALLEL = 8;
const TIMEOUT_MS = 15_000;
/** Limits against a broken or hostile gateway: a document, its decompressed payload, and the index's length. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const MAX_PAYLOAD_BYTES = 20 * 1024 * 1024;
const MAX_INDEX_PAGES = 1_000;

export class GatewayError extends Error {}
/** The gateway's address is one the server may not reach (lib/outbound): the request is refused, nothing failed. */
export class GatewayRefused extends GatewayError {}

type Ref = { id: string; ver?: string | undefined };
export interface SignedDocument {
  metadata: Map<unknown, unknown>;
  payload: unknown;
  authors: string[];
}

const uuidOf = (bytes: Uint8Array) => {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/** A UUID as CBOR carries it (tag 37 around 16 bytes, or bare bytes, or text). */
function uuid(value: unknown): string | undefined {
  if (value instanceof Tag) return uuid(value.contents);
  if (value instanceof Uint8Array && value.length === 16) return uuidOf(value);
  if (typeof value === 'string') return value;
  return undefined;
}

/** A document reference in any of the shapes the specification has used: [id, ver], [[id, ver, …]], {id, ver}. */
export function refOf(value: unknown): Ref | undefined {
  if (value instanceof Map) return refOf({ id: value.get('id'), ver: value.get('ver') });
  if (Array.isArray(value)) {
    if (value.length > 0 && Array.isArray(value[0])) return refOf(value[0]);
    const id = uuid(value[0]);
    return id ? { id, ver: uuid(value[1]) } : undefined;
  }
  if (value && typeof value === 'object' && 'id' in value) {
    const id = uuid((value as { id: unknown }).id);
    return id ? { id, ver: uuid((value as { ver?: unknown }).ver) } : undefined;
  }
  const id = uuid(value);
  return id ? { id } : undefined;
}

const text = (value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : typeof value === 'string' ? value : undefined;

/** Decodes one signed document: metadata, JSON payload, and the signers' Catalyst IDs. */
export function decodeSignedDocument(bytes: Uint8Array): SignedDocument {
  try {
    return decodeUnchecked(bytes);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(`A document could not be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function decodeUnchecked(bytes: Uint8Array): SignedDocument {
  let structure: unknown = decode(bytes);
  if (structure instanceof Tag) structure = structure.contents;
  if (!Array.isArray(structure) || structure.length < 4) throw new GatewayError('The document is not a COSE_Sign structure.');
  const [protectedBytes, , payloadBytes, signatures] = structure as [unknown, unknown, unknown, unknown];
  const decoded: unknown = protectedBytes instanceof Uint8Array && protectedBytes.length > 0 ? decode(protectedBytes) : new Map();
  // An empty or all-text-key map may come back as a plain object.
  const metadata =
    decoded instanceof Map
      ? decoded
      : decoded && typeof decoded === 'object' && !Array.isArray(decoded)
        ? new Map(Object.entries(decoded))
        : undefined;
  if (!metadata) throw new GatewayError('The document header is not a map.');
  if (!(payloadBytes instanceof Uint8Array)) throw new GatewayError('The document has no payload.');
  const encoding = metadata.get('content-encoding');
  const raw = encoding === 'br' ? brotliDecompressSync(payloadBytes, { maxOutputLength: MAX_PAYLOAD_BYTES }) : Buffer.from(payloadBytes);
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new GatewayError('The document payload is not JSON.');
  }
  const authors = (Array.isArray(signatures) ? signatures : [])
    .map((signature) => {
      if (!Array.isArray(signature) || !(signature[0] instanceof Uint8Array)) return undefined;
      const header = decode(signature[0]);
      return header instanceof Map ? text(header.get(4)) : undefined;
    })
    .filter((kid): kid is string => !!kid);
  return { metadata, payload, authors };
}

async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

export function createGatewayReader(fetchImpl: typeof fetch = fetch) {
  async function call(url: URL, init?: RequestInit): Promise<Response> {
    let response: Response;
    try {
      // No redirects: the admin named this gateway, not wherever it points to.
      response = await fetchImpl(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      if (error instanceof OutboundRefused) throw new GatewayRefused(`The Catalyst Gateway at ${url.origin} is refused: ${error.message}`);
      throw new GatewayError(`The Catalyst Gateway at ${url.origin} could not be reached.`);
    }
    return response;
  }

  async function documentBytes(base: string, ref: Ref): Promise<Uint8Array> {
    const url = new URL(`/api/v1/document/${encodeURIComponent(ref.id)}`, base);
    if (ref.ver) url.searchParams.set('version', ref.ver);
    const response = await call(url, { headers: { accept: 'application/cbor' } });
    if (!response.ok) throw new GatewayError(`The Catalyst Gateway answered ${response.status} for document ${ref.id}.`);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_DOCUMENT_BYTES)
      throw new GatewayError(`Document ${ref.id} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_DOCUMENT_BYTES) throw new GatewayError(`Document ${ref.id} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
    return bytes;
  }

  /** Every proposal document's latest version in the index (a 404 means none). */
  async function indexedProposals(base: string): Promise<Ref[]> {
    const refs: Ref[] = [];
    for (let page = 0; page < MAX_INDEX_PAGES; page += 1) {
      const url = new URL('/api/v1/document/index', base);
      url.searchParams.set('page', String(page));
      url.searchParams.set('limit', String(PAGE_LIMIT));
      const response = await call(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ type: PROPOSAL_DOCUMENT_TYPE }),
      });
      if (response.status === 404) break;
      if (!response.ok) throw new GatewayError(`The Catalyst Gateway's document index answered ${response.status}.`);
      let body: { docs?: { id: string; ver?: { ver: string }[] }[]; page?: { remaining?: number } };
      try {
        body = (await response.json()) as typeof body;
      } catch {
        throw new GatewayError("The Catalyst Gateway's document index did not answer JSON.");
      }
      if (!Array.isArray(body.docs)) throw new GatewayError("The Catalyst Gateway's document index answered without a list of documents.");
      for (const doc of body.docs) {
        if (typeof doc?.id !== 'string') continue;
        const latest = Array.isArray(doc.ver) ? doc.ver.at(-1)?.ver : undefined;
        refs.push({ id: doc.id, ver: typeof latest === 'string' ? latest : undefined });
      }
      if (!body.docs?.length || !body.page?.remaining) break;
    }
    return refs;
  }

  /** The gateway's proposals in the upload file's shape. */
  return async function readGateway(base: string): Promise<ImportFile> {
    const refs = await indexedProposals(base);
    const documents = await mapLimited(refs, PARALLEL, async (ref) => ({
      ref,
      document: decodeSignedDocument(await documentBytes(base, ref)),
    }));
    const templateRefs = new Map<string, Ref>();
    const proposals: ProposalDocument[] = [];
    for (const { ref, document } of documents) {
      const template = refOf(document.metadata.get('template'));
      if (!template || !document.payload || typeof document.payload !== 'object') continue;
      templateRefs.set(template.id, template);
      const category = refOf(document.metadata.get('parameters') ?? document.metadata.get('category_id'));
      const collaborators = document.metadata.get('collaborators');
      proposals.push({
        id: ref.id,
        ver: ref.ver ?? uuid(document.metadata.get('ver')),
        template: template.id,
        category: category?.id ?? null,
        authors: document.authors,
        collaborators: Array.isArray(collaborators) ? collaborators.map(text).filter((id): id is string => !!id) : [],
        url: null,
        payload: document.payload as Record<string, unknown>,
      });
    }
    const templates: ImportFile['templates'] = {};
    await mapLimited([...templateRefs.values()], PARALLEL, async (ref) => {
      const template = decodeSignedDocument(await documentBytes(base, ref));
      const category = refOf(template.metadata.get('parameters') ?? template.metadata.get('category_id'));
      templates[ref.id] = { category: category?.id ?? null, schema: template.payload as Record<string, unknown> };
    });
    return { format: 'catalyst-voices-proposals/1', categories: {}, templates, documents: proposals };
  };
}
