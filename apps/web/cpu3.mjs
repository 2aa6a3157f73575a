import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
const busy = () => { const f = readFileSync('/proc/stat','utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number); return (f.reduce((a,b)=>a+b,0) - f[3] - f[4]) / 100; };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking'] });
const N = 10;
async function measure(label, fn) { const b = busy(), t = Date.now(); await fn(); console.log(label, 'cpu/each', ((busy() - b) / N).toFixed(2), 'wall/each', ((Date.now() - t) / N / 1000).toFixed(2)); }
const ctx = await browser.newContext();
await measure('new page about:blank', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await p.close(); } });
await measure('new page + static html same origin', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await p.goto('http://127.0.0.1:3401/api/reviews/healthz'); await p.close(); } });
await measure('new page + setContent simple', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await p.setContent('<h1>hi</h1>'); await p.close(); } });
const p = await ctx.newPage();
await measure('same page, goto healthz', async () => { for (let i = 0; i < N; i++) { await p.goto('http://127.0.0.1:3401/api/reviews/healthz'); } });
await browser.close();
