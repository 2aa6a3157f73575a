import { Typography } from '@mantine/core';
import { Marked } from 'marked';
import { useMemo } from 'react';
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

/** A multi-line markdown answer (spec §2.12, D-027, D-031). */
export function MarkdownText({ text }: { text: string }) {
  const html = useMemo(() => markdownToSafeHtml(text), [text]);
  return <Typography className="proposal-markdown" fz="sm" dangerouslySetInnerHTML={{ __html: html }} />;
}
