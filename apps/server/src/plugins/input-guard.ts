import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ValidationErrorItem } from '@cr/contract/common';
import { renderValidationMessage } from '@cr/contract/messages';
import { isAcceptableText, messages } from '@cr/contract/rules';
import { AppError, fieldLabel, ValidationFailure } from '../errors';
import { invalidJsonMessage, prototypeKeyMessage } from './error-handler';
import { addRouteHook } from './route-hooks';

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
        return { loc, msg: renderValidationMessage(messages.text, fieldLabel(loc)), type: 'text' };
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

/** Whether a parsed JSON value holds a `__proto__` key, or a `constructor` key whose object holds `prototype`. */
export function hasPrototypeKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    if (Object.hasOwn(item, '__proto__')) return true;
    const constructor = (item as Record<string, unknown>).constructor;
    if (
      Object.hasOwn(item, 'constructor') &&
      constructor !== null &&
      typeof constructor === 'object' &&
      Object.hasOwn(constructor, 'prototype')
    )
      return true;
    stack.push(...Object.values(item));
  }
  return false;
}

const invalidJson = () => new AppError(400, invalidJsonMessage);

/**
 * The API's JSON parser. Fastify's own refuses prototype keys as well, but as "not valid JSON", which it is; this one
 * says what is wrong (issue 13 item 12). JSON.parse makes such keys plain own properties, and the body is refused
 * before anything reads it.
 */
function parseJson(_request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (body.length === 0) return done(invalidJson());
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return done(invalidJson());
  }
  // Only a text naming one of those keys (or escaping characters, which could spell one) needs the walk.
  if (/__proto__|constructor|\\u/.test(body) && hasPrototypeKey(value)) return done(new AppError(400, prototypeKeyMessage));
  return done(null, value);
}

const decodes = (text: string) => {
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
};

/**
 * Where a request's query string holds a percent-encoding that is not UTF-8 (such as `%ED%A0%80`, a surrogate on its
 * own, or `%FF`): the URL parser would turn it into U+FFFD unseen, so it is refused like any other text that is not.
 */
export function findUndecodableQuery(url: string): ValidationErrorItem | null {
  // The router already refuses such a path (400); the query string is parsed leniently, so it is checked here.
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return null;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    const equals = pair.indexOf('=');
    const key = equals < 0 ? pair : pair.slice(0, equals);
    if (!decodes(key)) return { loc: ['query'], msg: renderValidationMessage(messages.text, 'A field name'), type: 'text' };
    if (equals >= 0 && !decodes(pair.slice(equals + 1))) {
      const loc = ['query', decodeURIComponent(key.replace(/\+/g, ' '))];
      return { loc, msg: renderValidationMessage(messages.text, fieldLabel(loc)), type: 'text' };
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
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  // On the API's routes (those that state their access), as a hook of each (plugins/route-hooks).
  const guard: preValidationAsyncHookHandler = async (request) => {
    const query = findUndecodableQuery(request.url);
    if (query) throw new ValidationFailure([query]);
    for (const [part, root] of PARTS) {
      const problem = findUnacceptableInput(request[part], root);
      if (problem) throw new ValidationFailure([problem]);
    }
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.access) addRouteHook(route, 'preValidation', guard);
  });
}
