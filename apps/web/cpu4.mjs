import { chromium } from '@playwright/test';
import { readFileSync, mkdtempSync } from 'node:fs';
const busy = () => { const f = readFileSync('/proc/stat','utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number); return (f.reduce((a,b)=>a+b,0) - f[3] - f[4]) / 100; };
const dir = mkdtempSync('/tmp/pctx-');
const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking'], reducedMotion: 'reduce' });
const url = 'http://127.0.0.1:3401/proposals';
const load = async (page) => { await page.goto(url); await page.getByRole('table', { name: 'Proposals' }).getByRole('link').first().waitFor(); };
const N = 10;
async function measure(label, fn) { const b = busy(), t = Date.now(); await fn(); console.log(label, 'cpu/load', ((busy() - b) / N).toFixed(2), 'wall/load', ((Date.now() - t) / N / 1000).toFixed(2)); }
await measure('persistent, new page', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await load(p); await p.close(); } });
await measure('persistent, new page again', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await load(p); await p.close(); } });
const keep = await ctx.newPage();
await measure('persistent, new page while another open', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await load(p); await p.close(); } });
await ctx.close();
