import { env } from '../config/env';
import { errorFromBody } from './api-error';
import { retryAfterSeconds } from './busy-retry';
import { fieldLabel } from './i18n';
import { formatLocale } from './locale';

type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** JSON body. */
  body?: unknown;
  /** Form-encoded body (login only). */
  form?: Record<string, string>;
  /** Save the answer as a file through the browser instead of parsing it (spec §7 downloads). */
  download?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (an idempotency key, issue 29). */
  headers?: Record<string, string>;
  /** Internal: set on the retry after a refresh. */
  retried?: boolean;
}

interface AuthHandlers {
  /** The access token when logged in, else undefined. */
  token(): string | undefined;
  /** Called once on a 401 of an authenticated call; resolves true when a new token is in place. */
  refresh(): Promise<boolean>;
}

let auth: AuthHandlers = { token: () => undefined, refresh: async () => false };

/** The session wires itself in here (app/provider.tsx), keeping lib/ free of feature imports. */
export function setAuthHandlers(handlers: AuthHandlers) {
  auth = handlers;
}

export function buildUrl(path: string, query?: Query, base = env.apiBase): string {
  const url = `${base}/${path.replace(/^\/+/, '')}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    // Array filters repeat the key (?assessors=a&assessors=b).
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/** True only for addresses under our own API base: the bearer token never leaves it (spec §7). */
export function isOwnApi(url: string, base = env.apiBase, origin = window.location.origin): boolean {
  const target = new URL(url, origin);
  const api = new URL(base.endsWith('/') ? base : `${base}/`, origin);
  return target.origin === api.origin && target.pathname.startsWith(api.pathname);
}

function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? fallback;
}

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The one fetch wrapper of the app: JSON in and out, bearer token to our own API only, errors as ApiError. */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = {
    ...options.headers,
    accept: options.download ? '*/*' : 'application/json',
    // The server's messages follow the interface's language (issue 31).
    'accept-language': formatLocale(),
  };
  let body: BodyInit | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const token = auth.token();
  const withToken = Boolean(token) && isOwnApi(url);
  if (withToken) headers.authorization = `Bearer ${token}`;

  const method = options.method ?? 'GET';
  const response = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal });

  if (response.status === 401 && withToken && !options.retried && (await auth.refresh())) {
    return api<T>(path, { ...options, retried: true });
  }
  if (!response.ok) {
    const error = errorFromBody(response.status, response.statusText, await parseBody(response), fieldLabel);
    error.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    throw error;
  }
  if (options.download) {
    saveBlob(await response.blob(), fileNameOf(response, 'download'));
    return undefined as T;
  }
  // A success answer's JSON body is optional (spec §7).
  return (await parseBody(response)) as T;
}
