import { describe, expect, it } from 'vitest';
import { DEFAULT_API_BASE, DEFAULT_FUND_RULES_URL, env, readEnv } from './env';

describe('runtime environment (spec §1, §9)', () => {
  it('uses the relative API base /api/reviews without a runtime override (A-001)', () => {
    expect(DEFAULT_API_BASE).toBe('/api/reviews');
    expect(readEnv(undefined).apiBase).toBe('/api/reviews');
    expect(readEnv({}).apiBase).toBe('/api/reviews');
    expect(readEnv({ API_BASE: '' }).apiBase).toBe('/api/reviews');
    // Under vitest there is no window, so the module-level value is the default.
    expect(env.apiBase).toBe('/api/reviews');
  });

  it('uses the API base the runtime environment supplies, without trailing slashes (A-002)', () => {
    expect(readEnv({ API_BASE: 'https://api.example.org/reviews' }).apiBase).toBe('https://api.example.org/reviews');
    expect(readEnv({ API_BASE: '/other/base//' }).apiBase).toBe('/other/base');
  });

  it('knows a build revision only when one is configured (A-007)', () => {
    expect(readEnv({ BUILD_REVISION: ' 1a2b3c4 ' }).buildRevision).toBe('1a2b3c4');
    expect(readEnv({ BUILD_REVISION: '   ' }).buildRevision).toBeUndefined();
    expect(readEnv({}).buildRevision).toBeUndefined();
  });

  it('links the fund rules to the knowledge base unless the deployment names another page (issue 12 item 14)', () => {
    expect(readEnv({}).fundRulesUrl).toBe(DEFAULT_FUND_RULES_URL);
    expect(readEnv({ FUND_RULES_URL: ' ' }).fundRulesUrl).toBe(DEFAULT_FUND_RULES_URL);
    expect(readEnv({ FUND_RULES_URL: 'https://example.org/rules' }).fundRulesUrl).toBe('https://example.org/rules');
  });
});
