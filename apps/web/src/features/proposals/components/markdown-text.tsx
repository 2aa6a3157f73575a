import { Typography } from '@mantine/core';
import { Marked } from 'marked';
import { useDeferredValue, useMemo } from 'react';
import { sanitizeHtml } from '../../../lib/sanitize';

/** Headings written in an answer sit below the page's own (h1 title, h2 segment, h3 section). */
const HEADING_OFFSET = 3;

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    heading({ tokens, depth }) {
      const level = Math.min(6, depth + HEADING_OFFSET);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

/**
 * Images written as raw HTML often have no text alternative; one without is marked decorative (alt="") so that
 * screen readers don't read its file name. The HTML is parsed in a <template>, whose content is inert: nothing in it
 * loads or runs.
 */
function withImageAlternatives(html: string): string {
  if (!html.includes('<img')) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const image of template.content.querySelectorAll('img:not([alt])')) image.setAttribute('alt', '');
  return template.innerHTML;
}

/**
 * Markdown as HTML, sanitised (spec §2.12): marked renders, DOMPurify removes scripts, handlers and styles. The
 * sanitiser runs last, on exactly what is displayed.
 */
export function markdownToSafeHtml(text: string): string {
  return sanitizeHtml(withImageAlternatives(markdown.parse(text, { async: false })));
}

/** The answers rendered lately (a proposal opened again shows at once), at most this many. */
const rendered = new Map<string, string>();
const RENDERED_KEPT = 200;

function renderedHtml(text: string): string | undefined {
  return rendered.get(text);
}

function render(text: string): string {
  const html = markdownToSafeHtml(text);
  if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  rendered.set(text, html);
  return html;
}

/**
 * A multi-line markdown answer (spec §2.12, D-027, D-031). A proposal has a dozen, some long: each is parsed and
 * sanitised in React's background pass (`useDeferredValue`), not in the page's first render (~70 ms of a desktop's,
 * four times that on a phone), so React answers input between them; until then its box is empty and says it is busy.
 * One rendered lately shows at once.
 */
export function MarkdownText({ text }: { text: string }) {
  const shown = useDeferredValue<string | null>(text, renderedHtml(text) === undefined ? null : text);
  const html = useMemo(() => (shown === null ? '' : (renderedHtml(shown) ?? render(shown))), [shown]);
  const current = shown === text;
  return (
    <Typography
      className="proposal-markdown"
      fz="sm"
      aria-busy={!current || undefined}
      dangerouslySetInnerHTML={{ __html: current ? html : '' }}
    />
  );
}
