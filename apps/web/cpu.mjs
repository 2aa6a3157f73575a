import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const busy = () => { const f = readFileSync('/proc/stat','utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number); return (f.reduce((a,b)=>a+b,0) - f[3] - f[4]) / 100; };
const spid = execSync(`pgrep -f 'src/server.ts' | head -1`).toString().trim();
const scpu = () => { const f = readFileSync(`/proc/${spid}/stat`,'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking'] });
const paths = (process.env.PATHS ?? '/proposals').split(',');
const b0 = busy(), s0 = scpu(), t0 = Date.now(), p0 = process.cpuUsage();
for (let i = 0; i < 10; i++) for (const path of paths) { const ctx = await browser.newContext(); const page = await ctx.newPage(); await page.goto('http://127.0.0.1:3401' + path); await page.getByRole('contentinfo').waitFor(); await page.waitForLoadState('networkidle'); await ctx.close(); }
const p = process.cpuUsage(p0);
const total = busy() - b0, server = scpu() - s0, pw = (p.user + p.system) / 1e6;
console.log('wall', Date.now() - t0, 'total busy', total.toFixed(1), 'server', server.toFixed(1), 'playwright', pw.toFixed(1), 'rest(chromium)', (total - server - pw).toFixed(1));
await browser.close();
