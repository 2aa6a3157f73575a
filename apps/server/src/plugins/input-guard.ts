import type { FastifyInstance } from 'fastify';
import type { ValidationErrorItem } from '@cr/contract/common';
import { renderValidationMessage } from '@cr/contract/messages';
import { isAcceptableText, messages } from '@cr/contract/rules';
import { ValidationFailure } from '../errors';

/** How deeply a request's JSON may nest; the deepest request the API takes (an import file) needs far fewer. */
export const MAX_INPUT_DEPTH = 64;

type Key = string | number;
interface Node {
  value: unknown;
  key: Key | null;
  parent: Node | null;
  depth: number;
}

const locOf = (node: Node, root: string): Key[] => {
  const keys: Key[] = [];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) keys.push(at.key);
  return [root, ...keys.reverse()];
};

function labelOf(loc: Key[]): string {
  const last = [...loc].reverse().find((part) => typeof part === 'string');
  const name = String(last ?? 'value').replace(/_/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The first string (or object key) of a parsed request part that breaks the contract's text rule, or the first place
 * nested deeper than MAX_INPUT_DEPTH. Walks without recursion, so that no nesting can exhaust the stack.
 */
export function findUnacceptableInput(value: unknown, root: string): ValidationErrorItem | null {
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value === 'string') {
      if (!isAcceptableText(node.value)) {
        const loc = locOf(node, root);
        return { loc, msg: renderValidationMessage(messages.text, labelOf(loc)), type: 'text' };
      }
      continue;
    }
    if (node.value === null || typeof node.value !== 'object' || Buffer.isBuffer(node.value)) continue;
    if (node.depth >= MAX_INPUT_DEPTH) {
      return { loc: locOf(node, root), msg: `The request is nested too deeply: at most ${MAX_INPUT_DEPTH} levels.`, type: 'depth' };
    }
    const entries: [Key, unknown][] = Array.isArray(node.value)
      ? node.value.map((item, index) => [index, item])
      : Object.entries(node.value);
    // Pushed last to first, so that the first offending place in the document's order is the one reported.
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      if (typeof key === 'string' && !isAcceptableText(key)) {
        return { loc: locOf(node, root), msg: renderValidationMessage(messages.text, 'A field name'), type: 'text' };
      }
      stack.push({ value: item, key, parent: node, depth: node.depth + 1 });
    }
  }
  return null;
}

const PARTS = [
  ['params', 'path'],
  ['query', 'query'],
  ['body', 'body'],
] as const;

/**
 * Holds every string of every API request — path, query and body, keys included — to the contract's text rule
 * (isAcceptableText) before the route's schema sees it, and refuses JSON nested too deeply: a 422 naming the field,
 * instead of the database failing on a NUL or an unpaired surrogate later (issue 13). The schemas apply the same rule
 * to their own strings; this is the net under every string they do not name.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.config?.access) return;
    for (const [part, root] of PARTS) {
      const problem = findUnacceptableInput(request[part], root);
      if (problem) throw new ValidationFailure([problem]);
    }
  });
}
