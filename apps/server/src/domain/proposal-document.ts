import { categoryTitleOfTemplate, type ProposalExtraField } from '@cr/contract/proposals';

export { categoryTitleOfTemplate };

/**
 * Reads a Catalyst Voices proposal document through its template (DOMAIN.md "Import and export"): each root property
 * of the template is a segment, each of its properties a section, each of theirs a field whose `ref` is the template
 * element's name (the last part of its `$ref`) and whose answer is the document's value. Order follows `x-order`,
 * then the remaining properties in file order. Templates are walked, not validated: real documents don't always meet
 * every constraint of their template, and the reviewers still need to read them.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The element name of a schema node: `#/definitions/singleLineTextEntry` → `singleLineTextEntry`. */
export function elementName(node: Json): string | null {
  const ref = node.$ref;
  return typeof ref === 'string' ? (ref.split('/').pop() ?? null) : null;
}

/** Property names in display order: those `x-order` names that exist, then the rest as they come. */
export function orderedKeys(node: Json): string[] {
  const properties = isObject(node.properties) ? Object.keys(node.properties) : [];
  const order = Array.isArray(node['x-order'])
    ? node['x-order'].filter((key): key is string => typeof key === 'string' && properties.includes(key))
    : [];
  return [...order, ...properties.filter((key) => !order.includes(key))];
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const titleOf = (node: Json, key: string) => text(node.title) ?? key;
const hasAnswer = (value: unknown) => value !== undefined && value !== null;

/** A field's answer as the reviewers' view needs it; nested objects and lists keep their own titles. */
function readNode(node: Json, key: string, answer: unknown, depth: number): ProposalExtraField | null {
  if (!hasAnswer(answer)) return null;
  const ref = elementName(node);
  // A list of objects (milestones): one group per item, holding the item's fields.
  if (isObject(node.items) && isObject(node.items.properties) && Array.isArray(answer)) {
    const item = node.items;
    const items = answer
      .map((entry, index) => {
        const fields = readChildren(item, entry, depth + 1);
        return fields.length > 0 ? { ref: 'item', title: `${titleOf(node, key)} ${index + 1}`, answer: null, sub_fields: fields } : null;
      })
      .filter((entry): entry is NonNullable<typeof entry> => entry !== null);
    return { ref: ref ?? 'list', title: titleOf(node, key), answer: null, sub_fields: items };
  }
  // A group of questions (a border group, a nested question): its properties, read the same way.
  if (isObject(node.properties) && isObject(answer) && depth < 8) {
    return { ref: ref ?? 'group', title: titleOf(node, key), answer: null, sub_fields: readChildren(node, answer, depth + 1) };
  }
  return { ref, title: titleOf(node, key), answer, sub_fields: null };
}

function readChildren(node: Json, answers: unknown, depth: number): ProposalExtraField[] {
  if (!isObject(answers) || !isObject(node.properties)) return [];
  const properties = node.properties;
  return orderedKeys(node)
    .map((key) => (isObject(properties[key]) ? readNode(properties[key], key, answers[key], depth) : null))
    .filter((field): field is ProposalExtraField => field !== null);
}

/** Segments → sections → fields of a document, leaving out what it did not answer. */
export function readExtra(template: Json, payload: Json): ProposalExtraField[] {
  const properties = isObject(template.properties) ? template.properties : {};
  const segments: ProposalExtraField[] = [];
  for (const segmentKey of orderedKeys(template)) {
    const segment = properties[segmentKey];
    if (!isObject(segment) || elementName(segment) === 'schemaReferenceNonUI' || segmentKey === '$schema') continue;
    const segmentAnswer = payload[segmentKey];
    if (!isObject(segmentAnswer) || !isObject(segment.properties)) continue;
    const sections: ProposalExtraField[] = [];
    for (const sectionKey of orderedKeys(segment)) {
      const section = segment.properties[sectionKey];
      if (!isObject(section)) continue;
      const fields = readChildren(section, segmentAnswer[sectionKey], 0);
      if (fields.length > 0)
        sections.push({ ref: elementName(section) ?? 'section', title: titleOf(section, sectionKey), answer: null, sub_fields: fields });
    }
    if (sections.length > 0)
      segments.push({ ref: elementName(segment) ?? 'segment', title: titleOf(segment, segmentKey), answer: null, sub_fields: sections });
  }
  return segments;
}

function at(root: Json, path: string[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * The currency of the requested funds: the field's `format`, else its definition's (`token:cardano:ada` → ADA,
 * `token:usdm` → USDM; spec §2.11 shows ADA, which every category but Midnight's uses).
 */
export function fundsCurrency(template: Json): string {
  const field = at(template, ['properties', 'summary', 'properties', 'budget', 'properties', 'requestedFunds']);
  if (!isObject(field)) return 'ADA';
  const definitions = isObject(template.definitions) ? template.definitions : isObject(template.$defs) ? template.$defs : {};
  const name = elementName(field);
  const definition = name ? definitions[name] : undefined;
  const format = text(field.format) ?? (isObject(definition) ? text(definition.format) : null) ?? '';
  const parts = format.split(':');
  if (parts[0] !== 'token' && parts[0] !== 'fiat') return 'ADA';
  const code = parts[1] === 'cardano' ? parts[2] : parts[1];
  return (code ?? 'ada').toUpperCase();
}

/**
 * The largest requested funds a proposal holds (issue 26 item 2): the largest whole number a JavaScript number holds
 * exactly, well inside PostgreSQL's bigint. A larger one (9223372036854775808, 1e19, 1e308) overflowed the column and
 * failed the whole import with a 500.
 */
export const MAX_FUNDS = Number.MAX_SAFE_INTEGER;
export const FUNDS_PATH = 'summary.budget.requestedFunds';

export interface ProposalFields {
  title: string | null;
  summary: string | null;
  solution: string | null;
  proposerName: string | null;
  funds: number | null;
  /** The document asks for more than MAX_FUNDS (or an infinite amount): it cannot be stored. */
  fundsOutOfRange: boolean;
  currency: string;
  extra: { fields: ProposalExtraField[] };
}

/** The columns of a proposal, from the paths the Voices app itself reads, and its extra information. */
export function readProposal(template: Json, payload: Json): ProposalFields {
  const requested = at(payload, FUNDS_PATH.split('.'));
  // A negative amount or one that is no number reads as "not stated", as before; only one too large to keep is refused.
  const funds = typeof requested === 'number' && requested >= 0 ? Math.round(requested) : null;
  const fundsOutOfRange = funds !== null && funds > MAX_FUNDS;
  const title = text(at(payload, ['setup', 'title', 'title']))?.trim();
  return {
    title: title ? title : null,
    summary: text(at(payload, ['summary', 'solution', 'summary'])),
    solution: text(at(payload, ['details', 'solution', 'solution'])),
    proposerName: text(at(payload, ['setup', 'proposer', 'applicant']))?.trim() || null,
    funds: fundsOutOfRange ? null : funds,
    fundsOutOfRange,
    currency: fundsCurrency(template),
    extra: { fields: readExtra(template, payload) },
  };
}

/**
 * The key a Catalyst ID is matched by (authors against accounts): no scheme, no `username@`, no `/role/rotation`
 * suffix, no '#encrypt', lower-case network.
 */
export function catalystKey(catalystId: string): string {
  let id = catalystId.trim().replace(/^id\.catalyst:\/\//i, '');
  id = id.replace(/#encrypt$/i, '');
  const at = id.indexOf('@');
  const slash = id.indexOf('/');
  if (at >= 0 && (slash < 0 || at < slash)) id = id.slice(at + 1);
  id = id.replace(/\/\d+\/\d+$/, '');
  const [network, ...rest] = id.split('/');
  return [network?.toLowerCase() ?? '', ...rest].join('/');
}
