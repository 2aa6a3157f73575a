import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Readable } from 'node:stream';

/**
 * Outbound requests an admin can aim (the gateway import, issue 13 item 8): only to the hosts the operator named, and
 * never into the server's own networks unless the operator allows it. The address rule is applied when the
 * connection is made (a `lookup` that checks every resolved address), so a name that resolves to a public address at
 * check time and to a private one at connect time (DNS rebinding) is refused all the same.
 */
export class OutboundRefused extends Error {}

export interface OutboundPolicyOptions {
  /** PROPOSALS_SOURCE_URL: its origin is always a permitted target. */
  sourceUrl?: string | undefined;
  /** GATEWAY_ALLOWLIST entries: `host`, `host:port`, `*.example.org` or an origin (`https://host:port`). */
  allowlist: string[];
  /** GATEWAY_ALLOW_PRIVATE: loopback, private and unique-local addresses permitted (an internal gateway, tests). */
  allowPrivate: boolean;
}

/** Never a target: link-local (cloud metadata at 169.254.169.254), unspecified, multicast, reserved. */
const neverRanges = new BlockList();
neverRanges.addSubnet('0.0.0.0', 8, 'ipv4');
neverRanges.addSubnet('169.254.0.0', 16, 'ipv4');
neverRanges.addSubnet('224.0.0.0', 4, 'ipv4');
neverRanges.addSubnet('240.0.0.0', 4, 'ipv4');
neverRanges.addAddress('::', 'ipv6');
neverRanges.addSubnet('fe80::', 10, 'ipv6');
neverRanges.addSubnet('ff00::', 8, 'ipv6');

/** The server's own networks: a target only with GATEWAY_ALLOW_PRIVATE. */
const privateRanges = new BlockList();
privateRanges.addSubnet('127.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('198.18.0.0', 15, 'ipv4');
privateRanges.addAddress('::1', 'ipv6');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** An IPv4 address inside IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function unwrapMapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Why an address may not be a target, or undefined when it may. */
export function addressRefusal(rawAddress: string, allowPrivate: boolean): string | undefined {
  const address = unwrapMapped(rawAddress);
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (neverRanges.check(address, family)) return `${address} is a link-local, unspecified or multicast address`;
  if (!allowPrivate && privateRanges.check(address, family)) {
    return `${address} is a loopback or private network address (set GATEWAY_ALLOW_PRIVATE=true to allow it)`;
  }
  return undefined;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');
const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** Whether a URL's host is named by the operator: PROPOSALS_SOURCE_URL's origin or a GATEWAY_ALLOWLIST entry. */
export function hostPermitted(url: URL, options: Pick<OutboundPolicyOptions, 'sourceUrl' | 'allowlist'>): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  if (options.sourceUrl && new URL(options.sourceUrl).origin === url.origin) return true;
  const host = bareHost(url.hostname);
  const port = url.port || defaultPort(url.protocol);
  return options.allowlist.some((rawEntry) => {
    const entry = rawEntry.trim().toLowerCase();
    if (!entry) return false;
    if (entry.includes('://')) {
      try {
        return new URL(entry).origin === url.origin;
      } catch {
        return false;
      }
    }
    const [entryHost, entryPort] = entry.startsWith('[')
      ? [entry.slice(0, entry.indexOf(']') + 1), entry.split(']:')[1]]
      : entry.split(':');
    if (entryPort && entryPort !== port) return false;
    const wanted = bareHost(entryHost ?? '');
    if (wanted.startsWith('*.')) return host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1;
    return host === wanted;
  });
}

/** A `lookup` for http(s).request that refuses any resolved address the policy forbids. */
function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refusal = addresses.map((entry) => addressRefusal(entry.address, allowPrivate)).find(Boolean);
      if (refusal) return callback(new OutboundRefused(`${hostname} resolves to ${refusal}.`), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * A `fetch` for the policy's targets: the host must be permitted, a literal address is judged at once and a name
 * when it is resolved for the connection. No redirects are followed (the answer is returned as it is).
 */
export function guardedFetch(options: OutboundPolicyOptions): typeof fetch {
  const lookup = guardedLookup(options.allowPrivate);
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!hostPermitted(url, options)) {
      throw new OutboundRefused(`${url.origin} is not PROPOSALS_SOURCE_URL nor in GATEWAY_ALLOWLIST.`);
    }
    const literal = bareHost(url.hostname);
    if (isIP(literal)) {
      const refusal = addressRefusal(literal, options.allowPrivate);
      if (refusal) throw new OutboundRefused(`${refusal}.`);
    }
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? init.body : undefined;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const request = send(
        url,
        { method: init.method ?? 'GET', headers: Object.fromEntries(headers), lookup, signal: init.signal ?? undefined },
        (response: IncomingMessage) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = response.statusCode ?? 502;
          const stream = status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, statusText: response.statusMessage ?? '', headers: responseHeaders }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }) as typeof fetch;
}
