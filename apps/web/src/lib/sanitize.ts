import DOMPurify from 'dompurify';

let hooked = false;

/** An image source that would make the reader's browser call another site (and tell it who reads what). */
function isRemote(src: string): boolean {
  try {
    const url = new URL(src, window.location.href);
    return url.protocol !== 'data:' && url.origin !== window.location.origin;
  } catch {
    return true;
  }
}

/**
 * A remote image becomes a link to it (its text: the alternative text, else the address), so that a proposal or a
 * message cannot track who reads it; images of this origin and data: images stay. `srcset` is dropped everywhere.
 * The fragment is still DOMPurify's inert document: nothing in it has loaded.
 */
function withoutRemoteImages(fragment: DocumentFragment): void {
  for (const image of fragment.querySelectorAll('img')) {
    image.removeAttribute('srcset');
    const src = image.getAttribute('src') ?? '';
    if (!isRemote(src)) continue;
    const label = image.getAttribute('alt') || src;
    const owner = image.ownerDocument;
    if (/^https?:/i.test(src)) {
      const link = owner.createElement('a');
      link.setAttribute('href', src);
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
      link.textContent = label;
      image.replaceWith(link);
    } else {
      image.replaceWith(owner.createTextNode(label));
    }
  }
}

/**
 * User HTML made safe to render (status messages, proposal fields): no scripts, handlers, styles or frames; links
 * open in a new tab without access to this window; no image from another site (issue 13 item 13).
 */
export function sanitizeHtml(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  const fragment = DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'button'],
    FORBID_ATTR: ['style', 'srcset'],
    RETURN_DOM_FRAGMENT: true,
  });
  withoutRemoteImages(fragment);
  // Serialised through an inert <template>: the images are never adopted by the live document before display.
  const template = document.createElement('template');
  template.content.append(fragment);
  return template.innerHTML;
}
