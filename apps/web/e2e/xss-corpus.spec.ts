import { expect, test, type Page } from './fixtures';
import { demo, login, rewriteJson } from './support';

/**
 * Issue 13, "XSS corpus": OWASP-style payloads through every sink that renders user text as HTML or markdown (status
 * messages and their preview, proposal markdown and fields, review notes, event and proposal names), rendered in
 * Chromium. Nothing may run (no dialog, no flag set), no handler attribute and no javascript: URL may reach the page,
 * and no image may be fetched from another site.
 *
 * (Chromium logs a CSP report for a handler attribute in a DOMParser document, where DOMPurify parses: nothing runs
 * there, scripting is off in such a document.)
 *
 * The payloads are put into the API's answers on their way to the page (rewriteJson), unsanitised: the web app must
 * hold on its own, whatever the server stored, and no other test sees a poisoned status or event name.
 */
const MARK = 'XSS-CORPUS-MARK';
const TRACKER = 'https://tracker.example';
const CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="window.__xss=1"/>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text y="20">svg link</text></a></svg>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>parent.alert(1)</script>"></iframe>',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>details</details>',
  '<a href="javascript:alert(1)">link 1</a>',
  '<a href="JaVaScRiPt:alert(1)">link 2</a>',
  '<a href="&#106;avascript:alert(1)">link 3</a>',
  '<a href="jav&#x09;ascript:alert(1)">link 4</a>',
  '<a href=" javascript:alert(1)">link 5</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">link 6</a>',
  '[md link 1](javascript:alert(1))',
  '[md link 2](JAVASCRIPT:alert(1))',
  '[md link 3](&#x6A;avascript:alert(1))',
  '![md image](javascript:alert(1))',
  '![md image 2](x" onerror="alert(1))',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<form><button formaction=javascript:alert(1)>form</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<select autofocus onfocus=alert(1)></select>',
  '<textarea autofocus onfocus=alert(1)></textarea>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<marquee onstart=alert(1)>marquee</marquee>',
  '<div style="background:url(javascript:alert(1))">styled</div>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<style>@import "javascript:alert(1)";</style>',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '{{constructor.constructor("alert(1)")()}}',
  `![tracking pixel](${TRACKER}/pixel.png)`,
  `<img src="${TRACKER}/pixel2.png" srcset="${TRACKER}/pixel3.png 2x" alt="tracked">`,
];
const ALL = `${MARK}\n\n${CORPUS.join('\n\n')}`;

/** Wires the page so that anything a payload manages to do is seen: dialogs, requests to the tracker. */
function watch(page: Page) {
  const seen = { dialogs: [] as string[], tracker: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (request.url().startsWith(TRACKER)) seen.tracker.push(request.url());
  });
  return seen;
}

/** No handler attribute, no script-bearing URL, no script, frame or plug-in in the rendered body, no flag set. */
async function expectNothingRan(page: Page, seen: ReturnType<typeof watch>) {
  await expect(page.getByText(MARK).first()).toBeVisible();
  const findings = await page.evaluate(() => {
    const bad: string[] = [];
    const urlAttributes = /^(href|src|action|formaction|xlink:href|data|poster|background|srcdoc|srcset)$/i;
    for (const element of document.body.querySelectorAll('*')) {
      for (const name of element.getAttributeNames()) {
        // Browsers ignore control characters and spaces inside a URL's scheme: so does this check.
        const raw = element.getAttribute(name) ?? '';
        const value = [...raw]
          .filter((character) => character.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase();
        if (name.toLowerCase().startsWith('on')) bad.push(`${element.tagName} has ${name}`);
        if (urlAttributes.test(name) && /^(javascript|vbscript|data:text\/html)/.test(value))
          bad.push(`${element.tagName} ${name}=${value}`);
      }
      if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'BASE', 'META', 'LINK'].includes(element.tagName))
        bad.push(`a ${element.tagName} in the body`);
    }
    if ((window as unknown as { __xss?: unknown }).__xss !== undefined) bad.push('window.__xss was set');
    return bad;
  });
  expect(findings).toEqual([]);
  expect(seen.dialogs).toEqual([]);
  expect(seen.tracker).toEqual([]);
}

/** Replaces every string under the given keys, at any depth, with the corpus. */
function poison(json: unknown, keys: string[]): void {
  if (Array.isArray(json)) json.forEach((item) => poison(item, keys));
  else if (json && typeof json === 'object') {
    for (const [key, value] of Object.entries(json)) {
      if (keys.includes(key) && typeof value === 'string') (json as Record<string, unknown>)[key] = ALL;
      else poison(value, keys);
    }
  }
}

const statusMessages = (json: { value: { messages: unknown[] } }) => {
  json.value.messages = [
    { row_id: 9001, message: ALL, severity: 'warning', is_active: true, action_text: MARK, action_url: 'javascript:alert(1)' },
    ...CORPUS.map((message, index) => ({
      row_id: 9100 + index,
      message: `${MARK} ${message}`,
      severity: 'info',
      is_active: true,
      action_text: null,
      action_url: null,
    })),
  ];
};

test.describe('XSS corpus in Chromium (issue 13)', () => {
  test('status messages: the banner on every page', async ({ page }) => {
    const seen = watch(page);
    await rewriteJson(page, /\/api\/reviews\/configs\/status\/?$/, statusMessages);
    await page.goto('/');
    await expectNothingRan(page, seen);
    await page.goto('/proposals');
    await expectNothingRan(page, seen);
  });

  test('status messages: the admin preview of raw HTML', async ({ page }) => {
    const seen = watch(page);
    await rewriteJson(page, /\/api\/reviews\/configs\/status\/?$/, statusMessages);
    await login(page, demo.admin, { to: '/admin/status' });
    await expect(page.getByText(/^Preview/).first()).toBeVisible();
    await expectNothingRan(page, seen);
  });

  test('a proposal: markdown, text, link and tag fields, title, summary and address', async ({ page, request }) => {
    const seen = watch(page);
    const list = await (await request.get('/api/reviews/proposals/?size=1')).json();
    const id = list.data[0].row_id as number;
    const field = (ref: string, answer: unknown) => ({ ref, title: `${MARK} <img src=x onerror=alert(1)>`, description: ALL, answer });
    await rewriteJson(page, new RegExp(`/api/reviews/proposals/${id}/?$`), (json) => {
      json.title = ALL;
      json.summary = ALL;
      json.solution = ALL;
      json.proposer_name = ALL;
      json.url = 'javascript:alert(1)';
      json.extra.fields = [
        {
          ref: null,
          title: ALL,
          sub_fields: [
            {
              ref: null,
              title: '<svg onload=alert(1)>',
              sub_fields: [
                field('multiLineTextEntryMarkdown', ALL),
                ...CORPUS.map((payload) => field('multiLineTextEntryMarkdown', `${MARK} ${payload}`)),
                field('singleLineTextEntry', ALL),
                field('multiLineTextEntry', ALL),
                field('singleLineHttpsURLEntryList', [
                  'javascript:alert(1)',
                  ' JaVaScRiPt:alert(1)',
                  'data:text/html,<script>alert(1)</script>',
                  ALL,
                ]),
                field('singleLineHttpsURLEntry', 'javascript:alert(1)'),
                field('tagInput', ALL),
                field('singleGroupedTagSelector', { group: ALL, tag: ALL }),
                field('something-else', ALL),
              ],
            },
          ],
        },
      ];
    });
    await page.goto(`/proposal/${id}`);
    await expectNothingRan(page, seen);
    // A remote image is shown as a link to it, never loaded (nothing tells a third party who reads the proposal).
    await expect(page.locator(`a[href="${TRACKER}/pixel.png"]`).first()).toBeAttached();
    expect(await page.locator(`img[src^="${TRACKER}"]`).count()).toBe(0);
  });

  test('the proposals list: titles, proposers and summaries', async ({ page }) => {
    const seen = watch(page);
    await rewriteJson(page, /\/api\/reviews\/proposals\/\?/, (json) =>
      poison(json, ['title', 'proposer_name', 'summary', 'objective_title']),
    );
    await page.goto('/proposals');
    await expectNothingRan(page, seen);
  });

  test('a review: notes, proposal title and reviewer', async ({ page, request }) => {
    const seen = watch(page);
    const list = await (await request.get('/api/reviews/proposal-reviews/?size=1')).json();
    const id = list.data[0].row_id as number;
    await rewriteJson(page, new RegExp(`/api/reviews/proposal-reviews/${id}/?$`), (json) =>
      poison(json, ['impact_alignment_note', 'feasibility_note', 'auditability_note', 'title', 'anonymous_id', 'url']),
    );
    await page.goto(`/review/${id}`);
    await expectNothingRan(page, seen);
  });

  test('event names: the admin events list', async ({ page }) => {
    const seen = watch(page);
    await rewriteJson(page, /\/api\/reviews\/events\//, (json) => poison(json, ['name', 'description']));
    await login(page, demo.admin, { to: '/admin/events' });
    await expectNothingRan(page, seen);
  });

  test("event names: a reviewer's subscriptions on the profile and the event bar", async ({ page }) => {
    const seen = watch(page);
    await rewriteJson(page, /\/api\/reviews\/events\//, (json) => poison(json, ['name', 'description']));
    await rewriteJson(page, /\/api\/reviews\/users\/me\/?$/, (json) => poison(json, ['name']));
    await login(page, demo.reviewer);
    await expectNothingRan(page, seen);
  });
});
