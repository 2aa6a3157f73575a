import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import i18n, { loadAdminStrings, loadMoreStrings } from './i18n';
import firstLoad from '../locales/en-US.json';
import more from '../locales/en-US.more.json';
import admin from '../locales/en-US.admin.json';

const src = fileURLToPath(new URL('..', import.meta.url));

/** The modules a visitor's first load runs before the strings of the other screens arrive (issue 16). */
const FIRST_LOAD_MODULES = [
  'app/layout/app-layout.tsx',
  'app/layout/footer.tsx',
  'app/layout/nav-bar.tsx',
  'app/layout/nav-links.tsx',
  'app/layout/nav-menus.tsx',
  'app/layout/subscribe-button.tsx',
  'app/layout/top-bars.tsx',
  'app/provider.tsx',
  'app/theme.ts',
  'app/routes/route-error.tsx',
  'app/routes/home.tsx',
  'app/routes/not-found.tsx',
  'app/routes/auth/login.tsx',
  'app/routes/proposals/proposals.tsx',
  'features/events/components/current-events.tsx',
  'features/events/components/stage-badge.tsx',
  'features/events/api/events.ts',
  'features/proposals/components/proposals-table.tsx',
  'features/proposals/components/title-filter.tsx',
  'components/copy-button.tsx',
  'components/empty-table-row.tsx',
  'components/page-heading.tsx',
  'components/query-pagination.tsx',
  'components/responsive-list.tsx',
  'components/scroll-table.tsx',
  'lib/notify.ts',
  'lib/api-error.ts',
];

describe('strings split by first load (issue 16)', () => {
  it('keeps every section in one file only', () => {
    const shared = Object.keys(firstLoad).filter((section) => section in more);
    expect(shared).toEqual([]);
  });

  it('finds in the first-load file every section the first-load modules name', () => {
    const sections = new Set([...Object.keys(firstLoad), ...Object.keys(more)]);
    const named = new Set<string>();
    for (const file of FIRST_LOAD_MODULES) {
      const text = readFileSync(src + file, 'utf8');
      // 'section.key' and `section.${…}` literals whose first part is a section of the strings.
      for (const match of text.matchAll(/['`]([a-zA-Z0-9]+)\.[a-zA-Z0-9_.${}]+['`]/g)) {
        if (sections.has(match[1]!)) named.add(match[1]!);
      }
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((section) => !(section in firstLoad))).toEqual([]);
  });

  it('adds the other screens’ strings when asked', async () => {
    const key = `${Object.keys(more)[0]}.${Object.keys(Object.values(more)[0]!)[0]}`;
    expect(i18n.exists(key)).toBe(false);
    await loadMoreStrings();
    expect(i18n.exists(key)).toBe(true);
  });
});

/** Every source file under src/, relative to it. */
function sourceFiles(dir = ''): string[] {
  return readdirSync(src + dir).flatMap((name) => {
    const path = dir ? `${dir}/${name}` : name;
    if (statSync(src + path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The modules only the admin routes (router.tsx: `adminPage`) render. */
const ADMIN_MODULE =
  /^(app\/routes\/admin\/|features\/admin\/|features\/events\/components\/(event-form|level-qualifiers-form|general-config-form)\.tsx$)/;

describe("the admin screens' strings apart (issue 30 item 5)", () => {
  it('keeps every admin section out of the other files', () => {
    expect(Object.keys(admin).filter((section) => section in more || section in firstLoad)).toEqual([]);
  });

  it('names the admin sections only in modules of the admin routes', () => {
    const sections = Object.keys(admin);
    const outside: string[] = [];
    for (const file of sourceFiles().filter((path) => !ADMIN_MODULE.test(path))) {
      const text = readFileSync(src + file, 'utf8');
      for (const match of text.matchAll(/['`]([a-zA-Z0-9]+)\.[a-zA-Z0-9_.${}]+['`]/g)) {
        if (sections.includes(match[1]!)) outside.push(`${file}: ${match[0]}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('adds them when an admin route asks', async () => {
    const key = `adminRuns.${Object.keys(admin.adminRuns)[0]}`;
    await loadMoreStrings();
    expect(i18n.exists(key)).toBe(false);
    await loadAdminStrings();
    expect(i18n.exists(key)).toBe(true);
  });
});
