/** Runtime configuration from `/env.js` (window.__ENV__), so one build serves every deployment. */
interface RuntimeEnv {
  API_BASE?: string;
  BUILD_REVISION?: string;
  /** Where the fund rules that a reviewer accepts on subscribing are published. */
  FUND_RULES_URL?: string;
}

declare global {
  interface Window {
    __ENV__?: RuntimeEnv;
  }
}

export const DEFAULT_API_BASE = '/api/reviews';
/** The programme's published fund rules (Project Catalyst knowledge base), unless a deployment names others. */
export const DEFAULT_FUND_RULES_URL = 'https://docs.projectcatalyst.io/current-fund/fund-basics/fund-rules';

export function readEnv(source: RuntimeEnv | undefined = typeof window === 'undefined' ? undefined : window.__ENV__) {
  return {
    apiBase: (source?.API_BASE || DEFAULT_API_BASE).replace(/\/+$/, ''),
    buildRevision: source?.BUILD_REVISION?.trim() || undefined,
    fundRulesUrl: source?.FUND_RULES_URL?.trim() || DEFAULT_FUND_RULES_URL,
  };
}

export const env = readEnv();
