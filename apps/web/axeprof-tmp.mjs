import { chromium } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync } from 'node:fs';
const ctx = await chromium.launchPersistentContext(mkdtempSync('/tmp/prof-'), { executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking','--process-per-site'], serviceWorkers: 'block', baseURL: 'http://127.0.0.1:3199', reducedMotion: 'reduce' });
const keeper = await ctx.newPage(); await keeper.goto('/api/reviews/healthz');
const path = process.argv[2] ?? '/proposals';
const opts = process.argv[3] ? JSON.parse(process.argv[3]) : {};
const agg = {}; let total = 0;
for (let i = 0; i < 9; i++) {
  const p = await ctx.newPage();
  await p.goto(path); await p.waitForLoadState('networkidle');
  const cdp = await ctx.newCDPSession(p);
  await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
  const t = Date.now();
  const r = await new AxeBuilder({ page: p }).setLegacyMode().options({ resultTypes: ['violations'], ...opts }).analyze();
  const ms = Date.now() - t; if (i) total += ms;
  const { profile } = await cdp.send('Profiler.stop');
  if (i) {
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const dt = profile.timeDeltas; const counts = new Map();
  profile.samples.forEach((s, k) => counts.set(s, (counts.get(s) ?? 0) + (dt[k] ?? 0)));
  for (const [id, us] of counts) { const n = byId.get(id); const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}`; agg[key] = (agg[key] ?? 0) + us / 1000; }
  }
  console.log('axe', ms, 'ms', r.violations.length);
  await p.close();
}
console.log('mean ms', (total/8).toFixed(0));
const rows = Object.entries(agg).sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows.slice(0, 25)) console.log((v/3).toFixed(1), k);
await ctx.close();
