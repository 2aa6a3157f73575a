import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';

/**
 * The bad-input corpus (issue 13, "Tests that keep it so"): every operation of the app's own OpenAPI document, called
 * as anonymous, reviewer and admin with NUL characters, unpaired surrogates, huge and negative numbers, wrong types,
 * deep nesting, oversized bodies and prototype keys, answers a 4xx with a clear message — never a 5xx. The routes
 * come from the document, so a new route is covered without an entry here. fast-check adds random JSON bodies and
 * random texts holding a bad character.
 */

const BODY_LIMIT = 16_384;
const IMPORT_BODY_LIMIT = 32_768;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  bodyType?: 'json' | 'form';
  bodySchema?: JsonSchema;
}

type Caller = 'anonymous' | 'reviewer' | 'admin';
type Path = (string | number)[];

/** A value of the schema's shape: the template the corpus spoils one place at a time. */
function example(schema: JsonSchema | undefined): unknown {
  if (!schema) return {};
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (choice?.[0]) return example(choice[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) value[name] = example(property);
      if (!schema.properties && typeof schema.additionalProperties === 'object') value.some_name = example(schema.additionalProperties);
      return value;
    }
    case 'array':
      return schema.items ? [example(schema.items)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
      if (schema.format === 'uri') return 'https://example.test/';
      if (schema.format === 'email') return 'someone@example.test';
      return 'text';
    default:
      return {};
  }
}

/** Every place of a value (objects and arrays included), with what is there. */
function places(value: unknown, path: Path = []): { path: Path; value: unknown }[] {
  const here = path.length > 0 ? [{ path, value }] : [];
  if (value === null || typeof value !== 'object') return here;
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [...here, ...entries.flatMap(([key, item]) => places(item, [...path, key]))];
}

function replaced(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = next;
  return copy;
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const HUGE_AND_NEGATIVE = [2_147_483_648, 99_999_999_999, -1, -2_147_483_649, 1e308, 1.5];
const WRONG_TYPES = [true, '1', [1], {}, null];
/** Texts for path and query parameters, percent-encoded: NUL, an encoded surrogate (not UTF-8), bad numbers, words. */
const BAD_PARAMETERS = ['a%00b', '%ED%A0%80', '2147483648', '99999999999999999999', '-1', '1.5', 'abc', ''];
/** The parameters every caller tries; the admin tries them all. */
const TEXT_PARAMETERS = ['a%00b', '%ED%A0%80', '2147483648'];

interface Variant {
  name: string;
  url: string;
  payload?: string;
  contentType?: string;
  /** Must be refused (4xx); the others may succeed but never fail with a 5xx. */
  refused: boolean;
  /** Valid JSON, so "not valid JSON" would be the wrong message. */
  validJson?: boolean;
}

function urlOf(operation: Operation, path: Record<string, string> = {}, query = ''): string {
  const filled = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => path[name] ?? '1');
  return `${filled}${query ? `?${query}` : ''}`;
}

function encodeForm(value: unknown): string {
  const fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [['value', value]];
  return fields
    .map(
      ([name, item]) => `${encodeURIComponent(String(name))}=${encodeURIComponent(typeof item === 'string' ? item : JSON.stringify(item))}`,
    )
    .join('&');
}

function variantsOf(operation: Operation, full: boolean): Variant[] {
  const variants: Variant[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header') continue;
    for (const bad of full ? BAD_PARAMETERS : TEXT_PARAMETERS) {
      const refused = /%00|%ED/.test(bad);
      if (parameter.in === 'path') {
        variants.push({
          name: `path ${parameter.name}=${bad}`,
          url: urlOf(operation, { [parameter.name]: bad }),
          refused: refused || bad !== '',
        });
      } else {
        variants.push({ name: `query ${parameter.name}=${bad}`, url: urlOf(operation, {}, `${parameter.name}=${bad}`), refused });
      }
    }
    if (parameter.in === 'query') {
      variants.push({
        name: `query ${parameter.name} repeated`,
        url: urlOf(operation, {}, `${parameter.name}=1&${parameter.name}=x%00`),
        refused: true,
      });
    }
  }
  variants.push({ name: 'a NUL in a query key', url: urlOf(operation, {}, 'x%00y=1'), refused: true });
  if (!operation.bodyType) return variants;

  const url = urlOf(operation);
  const template = example(operation.bodySchema);
  const form = operation.bodyType === 'form';
  const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
  const body = (value: unknown) => (form ? encodeForm(value) : JSON.stringify(value));
  const add = (name: string, value: unknown, refused: boolean) =>
    variants.push({ name, url, payload: body(value), contentType, refused, validJson: true });

  let texts = 0;
  for (const place of places(template)) {
    // Every string of the template gets the bad characters from the admin; the others try the first one.
    if ((typeof place.value === 'string' || form) && (full || texts++ === 0)) {
      add(`NUL at ${place.path.join('.')}`, replaced(template, place.path, NUL), true);
      if (!form) add(`lone surrogate at ${place.path.join('.')}`, replaced(template, place.path, LONE_SURROGATE), true);
    }
    if (!full || form) continue;
    if (typeof place.value === 'number') {
      for (const number of HUGE_AND_NEGATIVE) add(`${number} at ${place.path.join('.')}`, replaced(template, place.path, number), false);
    }
    for (const wrong of WRONG_TYPES)
      add(`${JSON.stringify(wrong)} at ${place.path.join('.')}`, replaced(template, place.path, wrong), false);
  }
  if (form) {
    variants.push({ name: 'form with a NUL key', url, payload: 'a%00=1', contentType, refused: true });
    return variants;
  }
  for (const whole of [[], 'text', 1, null, true]) add(`the whole body ${JSON.stringify(whole)}`, whole, true);
  const firstKey = Object.keys((template ?? {}) as object)[0] ?? 'x';
  const json = (text: string, name: string) => variants.push({ name, url, payload: text, contentType, refused: true, validJson: true });
  json('{"__proto__": {"role": 100}}', 'a __proto__ key');
  json(`{"${firstKey}": {"__proto__": {"role": 100}}}`, 'a nested __proto__ key');
  json('{"\\u005f_proto__": {"role": 100}}', 'an escaped __proto__ key');
  json(`{"${firstKey}": {"constructor": {"prototype": {"role": 100}}}}`, 'a constructor.prototype key');
  json(`{"${firstKey}": ${'['.repeat(5000)}${']'.repeat(5000)}}`, 'nesting 5000 deep');
  json(`{"${firstKey}": ${'{"a":'.repeat(100)}1${'}'.repeat(100)}}`, 'objects nested 100 deep');
  const limit = operation.path.includes('/import/') ? IMPORT_BODY_LIMIT : BODY_LIMIT;
  variants.push({
    name: 'an oversized body',
    url,
    payload: JSON.stringify({ [firstKey]: 'x'.repeat(limit + 1) }),
    contentType,
    refused: true,
  });
  variants.push({ name: 'malformed JSON', url, payload: `{"${firstKey}": `, contentType, refused: true });
  return variants;
}

/** Why an answer breaks the rule, or null when it keeps it. */
function problemOf(response: LightMyRequestResponse, variant: Pick<Variant, 'refused' | 'validJson'>): string | null {
  if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`;
  if (variant.refused && response.statusCode < 400) return `accepted with ${response.statusCode}`;
  if (response.statusCode < 400) return null;
  let body: { message?: unknown; detail?: { loc?: unknown; msg?: unknown }[] };
  try {
    body = response.json();
  } catch {
    return `${response.statusCode} without a JSON body: ${response.body.slice(0, 100)}`;
  }
  const clearDetail =
    Array.isArray(body.detail) &&
    body.detail.length > 0 &&
    body.detail.every((item) => typeof item.msg === 'string' && item.msg && Array.isArray(item.loc));
  const clearMessage = typeof body.message === 'string' && body.message.length > 0;
  if (!clearDetail && !clearMessage) return `${response.statusCode} without a message: ${response.body.slice(0, 200)}`;
  if (variant.validJson && body.message === 'The request body is not valid JSON.') return 'valid JSON answered as "not valid JSON"';
  return null;
}

function operationsOf(document: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
}) {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      const json = content['application/json'];
      const form = content['application/x-www-form-urlencoded'];
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        ...(json
          ? { bodyType: 'json' as const, bodySchema: json.schema }
          : form
            ? { bodyType: 'form' as const, bodySchema: form.schema }
            : {}),
      });
    }
  }
  return operations;
}

describe.each(databaseKinds)('the bad-input corpus on %s (issue 13)', (kind) => {
  const ctx = useTestApp(kind, { BODY_LIMIT_BYTES: String(BODY_LIMIT), IMPORT_BODY_LIMIT_BYTES: String(IMPORT_BODY_LIMIT) });
  const callers = {} as Record<Caller, TestUser | undefined>;
  let operations: Operation[] = [];

  beforeAll(async () => {
    callers.anonymous = undefined;
    callers.reviewer = await ctx.newUser();
    callers.admin = await ctx.newAdmin();
    // An event with id 1, so that requests reach past "no such event" where their input lets them.
    const event = await ctx.app.inject({
      method: 'POST',
      url: `${API}/events/`,
      headers: callers.admin.auth,
      payload: { new_event: { name: 'Corpus round', description: 'For the bad-input corpus.', active: true } },
    });
    expect(event.statusCode).toBe(201);
    operations = operationsOf(ctx.app.swagger() as Parameters<typeof operationsOf>[0]);
  });

  const send = (caller: Caller, method: string, variant: Pick<Variant, 'url' | 'payload' | 'contentType'>) =>
    ctx.app.inject({
      method: method as 'GET',
      url: variant.url,
      headers: {
        ...(callers[caller]?.auth ?? {}),
        ...(variant.contentType ? { 'content-type': variant.contentType } : {}),
      },
      ...(variant.payload !== undefined ? { payload: variant.payload } : {}),
    });

  it('finds every API route in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.every((operation) => operation.path.startsWith(API))).toBe(true);
    expect(operations.filter((operation) => operation.bodyType).length).toBeGreaterThan(15);
  });

  it('answers every operation × caller × bad input with a 4xx and a clear message, never a 5xx', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const operation of operations) {
      for (const caller of ['admin', 'reviewer', 'anonymous'] as const) {
        // The admin, who passes every access check, gets the whole corpus; the others its text, nesting and size parts.
        for (const variant of variantsOf(operation, caller === 'admin')) {
          const response = await send(caller, operation.method, variant);
          count += 1;
          const problem = problemOf(response, variant);
          if (problem) failures.push(`${operation.method} ${operation.path} as ${caller}, ${variant.name}: ${problem}`);
        }
      }
    }
    expect(count).toBeGreaterThan(1500);
    expect(failures).toEqual([]);
  }, 240_000);

  it('answers any JSON value as any body without a 5xx (fast-check)', async () => {
    const withBody = operations.filter((operation) => operation.bodyType === 'json');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBody),
        fc.constantFrom<Caller>('admin', 'reviewer'),
        fc.jsonValue({ maxDepth: 4 }),
        async (operation, caller, value) => {
          const template = example(operation.bodySchema) as Record<string, unknown>;
          const firstKey = Object.keys(template ?? {})[0];
          // Half the time the value replaces the whole body, half the time what the body's one field holds.
          for (const payload of [value, firstKey ? { [firstKey]: value } : value]) {
            const response = await send(caller, operation.method, {
              url: urlOf(operation),
              payload: JSON.stringify(payload),
              contentType: 'application/json',
            });
            const problem = problemOf(response, { refused: false, validJson: true });
            if (problem)
              throw new Error(
                `${operation.method} ${operation.path} as ${caller} with ${JSON.stringify(payload).slice(0, 200)}: ${problem}`,
              );
          }
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);

  it('refuses a bad character anywhere in a text field with a 422 naming it (fast-check)', async () => {
    const targets = operations.flatMap((operation) =>
      operation.bodyType === 'json'
        ? places(example(operation.bodySchema))
            .filter((place) => typeof place.value === 'string')
            .map((place) => ({ operation, path: place.path }))
        : [],
    );
    const badText = fc
      .tuple(fc.string({ maxLength: 20 }), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ maxLength: 20 }))
      .map(([before, bad, after]) => before + bad + after);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), badText, async ({ operation, path }, text) => {
        const payload = replaced(example(operation.bodySchema), path, text);
        const response = await send('admin', operation.method, {
          url: urlOf(operation),
          payload: JSON.stringify(payload),
          contentType: 'application/json',
        });
        expect(response.statusCode).toBe(422);
        expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['body', ...path], type: 'text' })]);
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
