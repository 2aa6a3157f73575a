import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayRegistry } from '../src/adapters/catalyst-registry';
import { API, useTestApp } from './build-test-app';

/**
 * A fake Catalyst Gateway: `GET /api/v1/rbac/registration?lookup=` answers from a table the test edits (a Catalyst ID
 * missing from it is 404, 'broken' is a 500).
 */
function fakeGateway() {
  const chains = new Map<string, { last_persistent_txn: string | null; last_volatile_txn: string | null } | 'broken'>();
  const lookups: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://gateway');
    const id = url.searchParams.get('lookup') ?? '';
    if (url.pathname !== '/api/v1/rbac/registration') return void response.writeHead(404).end();
    lookups.push(id);
    const chain = chains.get(id);
    if (chain === 'broken') return void response.writeHead(500).end();
    if (!chain) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not found"}');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ catalyst_id: id, ...chain }));
  });
  return {
    chains,
    lookups,
    url: '',
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const persistent = { last_persistent_txn: '0xabc', last_volatile_txn: null };
const volatile = { last_persistent_txn: null, last_volatile_txn: '0xdef' };

describe('gateway registry adapter against a fake gateway (C-034)', () => {
  const gateway = fakeGateway();
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  it('maps not found → 1, only volatile → 2, persistent → 3, and a failing or unreachable gateway → 0', async () => {
    const registry = gatewayRegistry(gateway.url);
    gateway.chains.set('id.catalyst://persistent', persistent);
    gateway.chains.set('id.catalyst://volatile', volatile);
    gateway.chains.set('id.catalyst://empty', { last_persistent_txn: null, last_volatile_txn: null });
    gateway.chains.set('id.catalyst://broken', 'broken');
    expect(await registry.registrationStatus('id.catalyst://nobody')).toBe(1);
    expect(await registry.registrationStatus('id.catalyst://volatile')).toBe(2);
    expect(await registry.registrationStatus('id.catalyst://persistent')).toBe(3);
    expect(await registry.registrationStatus('id.catalyst://empty')).toBe(1);
    expect(await registry.registrationStatus('id.catalyst://broken')).toBe(0);
    expect(await gatewayRegistry('http://127.0.0.1:9').registrationStatus('id.catalyst://persistent')).toBe(0);
  });
});

describe('on-chain registration status in the user info, with CATALYST_REGISTRY=gateway (C-034, C-035, C-036)', () => {
  const gateway = fakeGateway();
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());
  const ctx = useTestApp('pglite', () => ({
    CATALYST_REGISTRY: 'gateway',
    CATALYST_GATEWAY_URL: gateway.url,
    REGISTRY_RECHECK_SECONDS: '0',
  }));

  it('is looked up at registration and again on users/me until it is persistent', async () => {
    const user = await ctx.newUser();
    const me = async () =>
      (await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth })).json().catalyst_id.rbac_reg_status;
    expect(await me()).toBe(1);
    gateway.chains.set(user.catalystId, volatile);
    expect(await me()).toBe(2);
    gateway.chains.set(user.catalystId, persistent);
    expect(await me()).toBe(3);
    // Once persistent, the gateway is not asked again.
    const asked = gateway.lookups.length;
    gateway.chains.delete(user.catalystId);
    expect(await me()).toBe(3);
    expect(gateway.lookups.length).toBe(asked);
  });
});

describe('registration re-lookups are spaced out by REGISTRY_RECHECK_SECONDS', () => {
  const gateway = fakeGateway();
  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());
  const ctx = useTestApp('pglite', () => ({
    CATALYST_REGISTRY: 'gateway',
    CATALYST_GATEWAY_URL: gateway.url,
    REGISTRY_RECHECK_SECONDS: '3600',
  }));

  it('asks the gateway once within the interval', async () => {
    const user = await ctx.newUser();
    const me = async () =>
      (await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth })).json().catalyst_id.rbac_reg_status;
    expect(await me()).toBe(1);
    const asked = gateway.lookups.filter((id) => id === user.catalystId).length;
    gateway.chains.set(user.catalystId, persistent);
    expect(await me()).toBe(1);
    expect(gateway.lookups.filter((id) => id === user.catalystId).length).toBe(asked);
  });
});
