import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
const busy = () => { const f = readFileSync('/proc/stat','utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number); return (f.reduce((a,b)=>a+b,0) - f[3] - f[4]) / 100; };
const args = ['--no-sandbox','--disable-gpu','--disable-background-networking', ...(process.env.EXTRA ? process.env.EXTRA.split(' ') : [])];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
const url = 'http://127.0.0.1:3401/proposals';
const load = async (page) => { await page.goto(url); await page.getByRole('table', { name: 'Proposals' }).getByRole('link').first().waitFor(); };
const N = 10;
async function measure(label, fn) { const b = busy(), t = Date.now(); await fn(); console.log(label, 'cpu/load', ((busy() - b) / N).toFixed(2), 'wall/load', ((Date.now() - t) / N / 1000).toFixed(2)); }
await measure('fresh context', async () => { for (let i = 0; i < N; i++) { const ctx = await browser.newContext({ reducedMotion: 'reduce' }); await load(await ctx.newPage()); await ctx.close(); } });
const ctx = await browser.newContext({ reducedMotion: 'reduce' });
await measure('same context, new page', async () => { for (let i = 0; i < N; i++) { const p = await ctx.newPage(); await load(p); await p.close(); } });
const page = await ctx.newPage();
await measure('same page', async () => { for (let i = 0; i < N; i++) await load(page); });
await measure('idle 1s x N', async () => { await page.waitForTimeout(1000 * N); });
await browser.close();
