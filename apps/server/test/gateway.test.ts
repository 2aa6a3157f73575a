import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { encode, Tag } from 'cbor2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayReader, decodeSignedDocument, GatewayError, PROPOSAL_DOCUMENT_TYPE, refOf } from '../src/adapters/catalyst-gateway';
import { addressRefusal, guardedFetch, hostPermitted, OutboundRefused } from '../src/lib/outbound';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { API, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

const uuidBytes = (uuid: string) => new Uint8Array(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
const uuidTag = (uuid: string) => new Tag(37, uuidBytes(uuid));
const TEMPLATE_TYPE = '0ce8ab38-9258-4fbc-a62e-7faa6e58318f';

/** A signed document as a Catalyst Gateway serves it: COSE_Sign (tag 98), Brotli-compressed JSON payload, one signer. */
function signedDocument(metadata: Map<unknown, unknown>, payload: unknown, kid: string): Uint8Array {
  const protectedHeader = encode(new Map<unknown, unknown>([[3, 'application/json'], ['content-encoding', 'br'], ...metadata]));
  const signatureHeader = encode(new Map([[4, new Uint8Array(Buffer.from(kid, 'utf8'))]]));
  return encode(
    new Tag(98, [
      protectedHeader,
      new Map(),
      new Uint8Array(brotliCompressSync(Buffer.from(JSON.stringify(payload)))),
      [[signatureHeader, new Map(), new Uint8Array(64)]],
    ]),
  );
}

/**
 * A fake Catalyst Gateway serving the sample proposals (built from the real templates and example) as signed
 * documents: the v1 document index (a page holds at most `pageCap` documents, so the reader must page) and fetch.
 */
function fakeGateway(pageCap = 10) {
  const sample = sampleImportFile({ authorOf: (index) => `id.catalyst://author${index}@preprod.cardano/key${index}/0/0` });
  const store = new Map<string, Uint8Array>();
  const index: { id: string; ver: string }[] = [];
  for (const [id, template] of Object.entries(sample.templates)) {
    const metadata = new Map<unknown, unknown>([
      ['type', [uuidTag(TEMPLATE_TYPE)]],
      ['id', uuidTag(id)],
      ['ver', uuidTag(id)],
      ...(template.category
        ? [['parameters', [[uuidTag(template.category), uuidTag(template.category), new Map()]]] as [unknown, unknown]]
        : []),
    ]);
    store.set(id, signedDocument(metadata, template.schema, 'id.catalyst://admin@preprod.cardano/adminkey/0/0'));
  }
  for (const document of sample.documents) {
    const metadata = new Map<unknown, unknown>([
      ['type', [uuidTag(PROPOSAL_DOCUMENT_TYPE)]],
      ['id', uuidTag(document.id)],
      ['ver', uuidTag(document.ver!)],
      ['template', [uuidTag(document.template as string), uuidTag(document.template as string)]],
      ...(document.category ? [['parameters', [uuidTag(document.category), uuidTag(document.category)]] as [unknown, unknown]] : []),
    ]);
    store.set(document.id, signedDocument(metadata, document.payload, document.authors![0]!));
    index.push({ id: document.id, ver: document.ver! });
  }
  const requests: string[] = [];
  let down = false;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (down) return void response.writeHead(503).end();
    if (request.method === 'POST' && url.pathname === '/api/v1/document/index') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const filter = JSON.parse(body) as { type?: string };
        const matching = filter.type === PROPOSAL_DOCUMENT_TYPE ? index : [];
        if (matching.length === 0)
          return void response
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"detail":"No documents were found which match the query filter"}');
        const page = Number(url.searchParams.get('page') ?? 0);
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), pageCap);
        const docs = matching
          .slice(page * limit, (page + 1) * limit)
          .map((doc) => ({ id: doc.id, ver: [{ ver: doc.ver, type: PROPOSAL_DOCUMENT_TYPE }] }));
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ docs, page: { page, limit, remaining: Math.max(0, matching.length - (page + 1) * limit) } }));
      });
      return;
    }
    const match = /^\/api\/v1\/document\/([0-9a-f-]+)$/.exec(url.pathname);
    const bytes = match ? store.get(match[1]!) : undefined;
    if (request.method === 'GET' && bytes)
      return void response.writeHead(200, { 'content-type': 'application/cbor' }).end(Buffer.from(bytes));
    response.writeHead(404).end();
  });
  return {
    sample,
    requests,
    url: '',
    setDown: (value: boolean) => (down = value),
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Catalyst Gateway reader against a fake gateway', () => {
  const gateway = fakeGateway();
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  it('pages through the index, decodes every signed document and its template, and names the signers as authors', async () => {
    const file = await createGatewayReader()(gateway.url);
    expect(file.documents).toHaveLength(31);
    expect(gateway.requests.filter((line) => line.startsWith('POST /api/v1/document/index')).length).toBe(4);
    expect(Object.keys(file.templates).sort()).toEqual(Object.keys(gateway.sample.templates).sort());
    const first = file.documents.find((document) => document.id === gateway.sample.documents[0]!.id)!;
    expect(first).toMatchObject({
      template: gateway.sample.documents[0]!.template,
      category: gateway.sample.documents[0]!.category,
      authors: ['id.catalyst://author0@preprod.cardano/key0/0/0'],
    });
    expect((first.payload as any).setup.title.title).toBe((gateway.sample.documents[0]!.payload as any).setup.title.title);
    expect(first.ver).toBe(gateway.sample.documents[0]!.ver);
  });

  it('reads references in every shape the specification used', () => {
    const id = '0199802c-21b4-7f75-b14a-331cd1605f74';
    expect(refOf([uuidTag(id), uuidTag(id)])).toEqual({ id, ver: id });
    expect(refOf([[uuidTag(id), uuidTag(id), new Map()]])).toEqual({ id, ver: id });
    expect(refOf(new Map([['id', uuidTag(id)]]))).toEqual({ id, ver: undefined });
    expect(refOf(uuidTag(id))).toEqual({ id });
    expect(refOf(42)).toBeUndefined();
  });

  it('refuses what is not a signed JSON document', () => {
    expect(() => decodeSignedDocument(encode([1, 2]))).toThrow(GatewayError);
    expect(() => decodeSignedDocument(new Uint8Array([0xff, 0x00, 0x13]))).toThrow(GatewayError);
    const bomb = encode([encode(new Map([['content-encoding', 'br']])), new Map(), new Uint8Array([1, 2, 3, 4]), []]);
    expect(() => decodeSignedDocument(bomb)).toThrow(GatewayError);
    expect(() => decodeSignedDocument(encode([encode(new Map()), new Map(), new Uint8Array(Buffer.from('not json')), []]))).toThrow(
      'The document payload is not JSON.',
    );
  });

  it('reports an unreachable gateway and a failing one', async () => {
    await expect(createGatewayReader()('http://127.0.0.1:9')).rejects.toThrow(/could not be reached/);
    gateway.setDown(true);
    await expect(createGatewayReader()(gateway.url)).rejects.toThrow(/answered 503/);
    gateway.setDown(false);
  });
});

describe('import from a Catalyst Gateway (POST proposals/import with source gateway)', () => {
  const gateway = fakeGateway(100);
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());
  // The fake gateway listens on loopback: named in the allowlist, with private addresses allowed (issue 13 item 8).
  const ctx = useTestApp('pglite', () => ({ GATEWAY_ALLOWLIST: gateway.url, GATEWAY_ALLOW_PRIVATE: 'true' }));
  const f = eventFixtures(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
  });
  const importFrom = (eventId: number, options: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposals/import/${eventId}`,
      headers: admin.auth,
      payload: { import_options: { source: 'gateway', gateway_url: gateway.url, ...options } },
    });

  it('imports the gateway’s proposals, naming categories after their templates, and a second import changes nothing', async () => {
    const event = await f.newEvent(admin, { active: true });
    const first = await importFrom(event.row_id, { dry_run: false });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ created: 31, skipped: 0 });
    expect(first.json().categories_created.sort()).toEqual([
      'Cardano Open: Developers',
      'Cardano Open: Ecosystem',
      'Cardano Partners: Tier-1 Enterprise Integrations',
      'Cardano Use Cases: Prototype & Launch',
      'Midnight: Compact DApps',
    ]);
    expect((await importFrom(event.row_id, { dry_run: false })).json()).toMatchObject({ created: 0, unchanged: 31 });
    const list = (await f.get(`proposals/?event_id=${event.row_id}&title=Private Payroll`)).json();
    expect(list.data[0]).toMatchObject({ objective_title: 'Midnight: Compact DApps', currency: 'USDM' });
    expect((await f.get(`proposals/${list.data[0].row_id}/`)).json().authors_count).toBe(1);
  });

  it('answers 502 with the reason when the gateway fails', async () => {
    const event = await f.newEvent(admin, { active: true });
    gateway.setDown(true);
    const response = await importFrom(event.row_id, { dry_run: true });
    gateway.setDown(false);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/Catalyst Gateway's document index answered 503/);
  });
});

/** Issue 13 item 8: the gateway import is no port probe: named hosts only, and no private address unless allowed. */
describe('gateway import targets (SSRF)', () => {
  const gateway = fakeGateway(100);
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  it('permits PROPOSALS_SOURCE_URL and the allowlist entries only', () => {
    const options = {
      sourceUrl: 'https://gateway.example.org/',
      allowlist: ['mirror.example.net', '*.catalyst.example', 'http://10.1.2.3:8080'],
    };
    const permitted = (url: string) => hostPermitted(new URL(url), options);
    expect(permitted('https://gateway.example.org/api')).toBe(true);
    expect(permitted('http://gateway.example.org/')).toBe(false);
    expect(permitted('https://gateway.example.org:8443/')).toBe(false);
    expect(permitted('https://mirror.example.net/')).toBe(true);
    expect(permitted('http://mirror.example.net/')).toBe(true);
    expect(permitted('https://a.catalyst.example/')).toBe(true);
    expect(permitted('https://catalyst.example/')).toBe(false);
    expect(permitted('https://evilcatalyst.example/')).toBe(false);
    expect(permitted('http://10.1.2.3:8080/')).toBe(true);
    expect(permitted('http://10.1.2.3:22/')).toBe(false);
    expect(permitted('http://127.0.0.1:5432/')).toBe(false);
    expect(permitted('https://user:pw@mirror.example.net/')).toBe(false);
    expect(hostPermitted(new URL('http://localhost:3000/'), { allowlist: ['localhost:3000'] })).toBe(true);
    expect(hostPermitted(new URL('http://localhost:3001/'), { allowlist: ['localhost:3000'] })).toBe(false);
  });

  it('refuses loopback, private, link-local and unspecified addresses unless private ones are allowed', () => {
    for (const address of ['127.0.0.1', '10.0.0.8', '172.20.1.1', '192.168.1.1', '100.64.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1']) {
      expect(addressRefusal(address, false), address).toMatch(/loopback or private/);
      expect(addressRefusal(address, true), address).toBeUndefined();
    }
    for (const address of ['169.254.169.254', '0.0.0.0', 'fe80::1', '::', '224.0.0.1', '::ffff:169.254.169.254']) {
      expect(addressRefusal(address, true), address).toMatch(/link-local/);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '172.32.0.1']) {
      expect(addressRefusal(address, false), address).toBeUndefined();
    }
  });

  it('a guarded fetch refuses a private address, literal or resolved, and reaches an allowed one', async () => {
    const port = new URL(gateway.url).port;
    const strict = guardedFetch({ allowlist: [`127.0.0.1:${port}`, `localhost:${port}`], allowPrivate: false });
    await expect(strict(`${gateway.url}/api/v1/document/x`)).rejects.toThrow(OutboundRefused);
    // A name is judged by the addresses it resolves to, when the connection is made.
    await expect(strict(`http://localhost:${port}/api/v1/document/x`)).rejects.toThrow(/localhost resolves to .* loopback or private/);
    await expect(strict('http://127.0.0.1:5432/')).rejects.toThrow(/not PROPOSALS_SOURCE_URL nor in GATEWAY_ALLOWLIST/);
    const lenient = guardedFetch({ allowlist: [`127.0.0.1:${port}`], allowPrivate: true });
    const file = await createGatewayReader(lenient)(gateway.url);
    expect(file.documents).toHaveLength(31);
  });

  describe('through POST proposals/import', () => {
    const ctx = useTestApp('pglite', () => ({ GATEWAY_ALLOWLIST: `localhost:${new URL(gateway.url).port}` }));
    const f = eventFixtures(ctx);
    const importFrom = async (gatewayUrl: string) => {
      const admin = await ctx.newAdmin();
      const event = await f.newEvent(admin, { active: true });
      return ctx.app.inject({
        method: 'POST',
        url: `${API}/proposals/import/${event.row_id}`,
        headers: admin.auth,
        payload: { import_options: { source: 'gateway', gateway_url: gatewayUrl, dry_run: true } },
      });
    };

    it('answers 422 for a host that is not allowed, without any request to it', async () => {
      const before = gateway.requests.length;
      for (const target of ['http://127.0.0.1:5432', 'http://169.254.169.254/latest/meta-data', gateway.url, 'https://example.org']) {
        const response = await importFrom(target);
        expect(response.statusCode, target).toBe(422);
        expect(response.json().detail[0]).toMatchObject({ loc: ['body', 'import_options', 'gateway_url'], type: 'not_allowed' });
      }
      expect(gateway.requests.length).toBe(before);
    });

    // Issue 26 item 9: it is the admin's request that is refused (it answered 502, as if the gateway had failed).
    it('answers 422 naming the reason when an allowed host resolves to a loopback address', async () => {
      const before = gateway.requests.length;
      const response = await importFrom(`http://localhost:${new URL(gateway.url).port}`);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toEqual([
        {
          loc: ['body', 'import_options', 'gateway_url'],
          msg: expect.stringMatching(/refused: localhost resolves to .*GATEWAY_ALLOW_PRIVATE/),
          type: 'not_allowed',
        },
      ]);
      expect(gateway.requests.length).toBe(before);
    });
  });
});
