import { config } from 'zod/v4/core';

/**
 * `zod` as the web app imports it (vite.config.ts aliases the bare specifier here, for the contract's modules and the
 * app's alike): Zod itself, set to parse without generating code (issue 26 item 9). Its JIT probes `new Function('')`
 * when an object schema is made, and under the page's CSP (script-src 'self', no 'unsafe-eval') the probe it catches is
 * still reported as a violation, noise that hides real reports. Set here, the setting is in place before any schema
 * is made, and Zod loads with the first page that needs it rather than with every page (issue 46 item 6).
 */
export * from 'zod/v4';
export { default } from 'zod/v4';

config({ jitless: true });
