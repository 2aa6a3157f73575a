import { config } from 'zod/v4/core';

/**
 * Zod parses without generating code (issue 26 item 9). Its JIT probes `new Function('')` once, and under the page's
 * CSP (script-src 'self', no 'unsafe-eval') the probe it catches is still reported as a violation on every page,
 * noise that hides real reports. An object schema reads the setting when it is made, so main.tsx imports this module
 * before anything else, before any contract schema exists.
 */
config({ jitless: true });
