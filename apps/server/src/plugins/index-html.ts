import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One page of the web build's `.vite/page-preloads.json` (apps/web/vite.config.ts): its path and its JS files. */
interface PagePreload {
  path: string;
  files: string[];
}

/** index.html with one page's `<link rel="modulepreload">` tags, ready in each encoding, and its ETag. */
interface IndexVariant {
  pattern: RegExp;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const ASSET = /^\/assets\/[\w.-]+\.js$/;

function readPagePreloads(webDist: string): PagePreload[] {
  const file = join(webDist, '.vite', 'page-preloads.json');
  if (!existsSync(file)) return [];
  const pages = JSON.parse(readFileSync(file, 'utf8')) as PagePreload[];
  // Only files of the build itself, so that nothing but a hashed asset's path ever lands in the tag.
  return pages.map((page) => ({
    path: page.path,
    files: page.files.filter((path) => ASSET.test(path) && existsSync(join(webDist, path))),
  }));
}

function variantOf(html: string, page: PagePreload, earlyScript: string | undefined): IndexVariant {
  const links = page.files.map((path) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${path}">`).join('\n    ');
  let text = links ? html.replace('</head>', `  ${links}\n  </head>`) : html;
  // Before the stylesheet: an inline script after a stylesheet waits for it.
  // A function, not a string: a `$` in the script (from the API's base) is no replacement pattern.
  if (earlyScript) text = text.replace('<title>', () => `<script>${earlyScript}</script>\n    <title>`);
  const identity = Buffer.from(text);
  return {
    pattern: new RegExp(page.path),
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
  };
}

/** The best encoding the request accepts: br, then gzip, else none (q=0 refuses one). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !q || Number.parseFloat(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/**
 * index.html as sent for an app path (issue 16: mobile first paint). For the pages the web build lists, it names that
 * page's code with `<link rel="modulepreload">`, so that the browser fetches it beside the entry's instead of one round
 * trip after the entry has run, at low priority so that the entry and the stylesheet (the first paint) come first; the
 * list is read from the build, again when index.html changes. Other paths get the file as built.
 * Always `Cache-Control: no-cache`: a new build's index.html names new files.
 */
export function indexHtmlSender(webDist: string, earlyScript?: string) {
  // Read again when a new build replaced index.html (a server left running across `npm run build`).
  let builtAt = -1;
  let variants: IndexVariant[] = [];
  const currentVariants = () => {
    const mtime = statSync(join(webDist, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (mtime !== builtAt) {
      // Mid-rebuild the file may be gone for a moment: then the file as it is answers (sendFile), read again next time.
      if (mtime === 0) return [];
      const pages = readPagePreloads(webDist).filter((page) => page.files.length > 0);
      const html = readFileSync(join(webDist, 'index.html'), 'utf8');
      // Every other app path: no page's code named, the early reads still (plugins/early-fetch.ts).
      const others = earlyScript ? [{ path: '', files: [] }] : [];
      variants = [...pages, ...others].map((page) => variantOf(html, page, earlyScript));
      builtAt = mtime;
    }
    return variants;
  };

  return (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    const path = request.url.split('?')[0] ?? '';
    const variant = currentVariants().find((candidate) => candidate.pattern.test(path));
    if (!variant) return reply.sendFile('index.html', { cacheControl: false });
    reply.header('etag', variant.etag).header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === variant.etag) return reply.code(304).send();
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(variant[encoding ?? 'identity']);
  };
}
