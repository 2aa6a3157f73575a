/** Runtime configuration from `/env.js` (window.__ENV__), so one build serves every deployment. */
interface RuntimeEnv {
  API_BASE?: string;
  BUILD_REVISION?: string;
}

declare global {
  interface Window {
    __ENV__?: RuntimeEnv;
  }
}

export const DEFAULT_API_BASE = '/api/reviews';

export function readEnv(source: RuntimeEnv | undefined = typeof window === 'undefined' ? undefined : window.__ENV__) {
  return {
    apiBase: (source?.API_BASE || DEFAULT_API_BASE).replace(/\/+$/, ''),
    buildRevision: source?.BUILD_REVISION?.trim() || undefined,
  };
}

export const env = readEnv();
