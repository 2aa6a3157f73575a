import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, testConfig } from '../src/config';
import { meetsOwaspMinimum } from '../src/lib/secrets';

describe('configuration from the environment', () => {
  it('has working defaults: embedded database in ./data, port 3000, API base /api/reviews', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      API_BASE: '/api/reviews',
      CATALYST_REGISTRY: 'local',
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      adminCatalystIds: [],
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('hashes new passwords at OWASP’s minimum argon2id cost unless told otherwise; tests ask for cheap hashes', () => {
    const defaults = loadConfig({});
    expect([defaults.PASSWORD_HASH_MEMORY_KIB, defaults.PASSWORD_HASH_ITERATIONS]).toEqual([19_456, 2]);
    expect(meetsOwaspMinimum({ memoryCost: 19_456, timeCost: 2, parallelism: 1 })).toBe(true);
    expect(meetsOwaspMinimum({ memoryCost: 7_168, timeCost: 5, parallelism: 1 })).toBe(true);
    expect(meetsOwaspMinimum({ memoryCost: 19_456, timeCost: 1, parallelism: 1 })).toBe(false);
    const test = testConfig();
    expect(meetsOwaspMinimum({ memoryCost: test.PASSWORD_HASH_MEMORY_KIB, timeCost: test.PASSWORD_HASH_ITERATIONS, parallelism: 1 })).toBe(
      false,
    );
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '4' })).toThrow(ConfigError);
  });

  it('reads ADMIN_CATALYST_IDS as a comma-separated list', () => {
    expect(loadConfig({ ADMIN_CATALYST_IDS: ' id.catalyst://cardano/a , cardano/b,, ' }).adminCatalystIds).toEqual([
      'id.catalyst://cardano/a',
      'cardano/b',
    ]);
  });

  it('uses secure cookies when PUBLIC_URL is https, and drops its trailing slash', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://review.example.org/' });
    expect(config.publicUrl).toBe('https://review.example.org');
    expect(config.secureCookies).toBe(true);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', JWT_SECRET: '  ', SMTP_URL: '' })).toMatchObject({
      DATABASE_URL: undefined,
      JWT_SECRET: undefined,
      SMTP_URL: undefined,
    });
  });

  it.each([
    ['PORT', { PORT: 'seventy' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['LOGIN_LIMIT_PER_ACCOUNT', { LOGIN_LIMIT_PER_ACCOUNT: '0' }],
    ['LOGIN_LIMIT_PER_ACCOUNT_ADDRESS', { LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '-1' }],
    ['LOGIN_BACKOFF_MAX_SECONDS', { LOGIN_BACKOFF_SECONDS: '60', LOGIN_BACKOFF_MAX_SECONDS: '30' }],
    ['BODY_LIMIT_BYTES', { BODY_LIMIT_BYTES: '-5' }],
    ['MAIL_OUTBOX_API', { MAIL_OUTBOX_API: 'maybe' }],
  ])('stops with a message naming %s when it is invalid', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`Invalid configuration:\\n.*${name}:`));
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', JWT_SECRET: 'short' })).toThrow(/PORT:[\s\S]*JWT_SECRET:/);
  });

  it('requires CATALYST_GATEWAY_URL when CATALYST_REGISTRY is gateway', () => {
    expect(() => loadConfig({ CATALYST_REGISTRY: 'gateway' })).toThrow('CATALYST_GATEWAY_URL: required when CATALYST_REGISTRY=gateway');
    expect(loadConfig({ CATALYST_REGISTRY: 'gateway', CATALYST_GATEWAY_URL: 'https://gateway.example' }).CATALYST_GATEWAY_URL).toBe(
      'https://gateway.example',
    );
  });
});
