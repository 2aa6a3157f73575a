import type { ProposalExtraField } from '@cr/contract/proposals';
import { formatDecimal } from '../../lib/decimal-format';

/**
 * Pure helpers of the proposal screens: how amounts, answers and titles read. Kept apart from the components so
 * that they are unit-tested without a browser.
 */

/** A whole number with grouping ('150,000'); '' when there is none. */
export function formatWholeNumber(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  // Intl keeps the sign of a value that rounds to zero ('-0'); an amount never reads that way.
  return formatDecimal(value, { decimals: 0, grouping: true }).replace(/^-(?=0$)/, '');
}

/** Funds in their currency without decimals (spec §2.11, §9): '150,000 ADA'; '' when the proposal asks for none. */
export function formatFunds(value: number | null | undefined, currency = 'ADA'): string {
  const amount = formatWholeNumber(value);
  return amount ? `${amount} ${currency}` : '';
}

/** Only http(s) addresses become links; anything else (javascript:, data:) stays text. */
export function isWebUrl(value: unknown, httpsOnly = false): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:');
  } catch {
    return false;
  }
}

/**
 * A title as people read it: template keys without a title of their own ('informational_content') become words
 * ('Informational content'); real titles stay as they are.
 */
export function displayTitle(title: string | null | undefined): string {
  const text = (title ?? '').trim();
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(text)) return text;
  const words = text.replace(/_/g, ' ');
  return words[0]!.toUpperCase() + words.slice(1);
}

const isScalar = (value: unknown): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value);

/** The readable parts of an answer of unknown shape: scalars as they are, objects by their values, lists flattened. */
export function answerParts(answer: unknown): string[] {
  if (answer === null || answer === undefined) return [];
  if (isScalar(answer)) return [String(answer)];
  if (Array.isArray(answer))
    return answer.flatMap((item) => (isScalar(item) ? [String(item)] : [answerParts(item).join(' ')])).filter((part) => part !== '');
  if (typeof answer === 'object') return Object.values(answer).flatMap(answerParts);
  return [];
}

/** The leaf answers below a node, in order (a tag list the server turned into items of fields). */
export function leafAnswers(fields: readonly ProposalExtraField[] | null | undefined): string[] {
  return (fields ?? []).flatMap((field) =>
    field.sub_fields && field.sub_fields.length > 0 ? leafAnswers(field.sub_fields) : answerParts(field.answer),
  );
}

/**
 * The tags of a tag-input field: its answer's items (strings, or objects such as `{ project_id: '1234567' }` shown
 * by their values), else the items the server read into sub-fields.
 */
export function tagItems(field: Pick<ProposalExtraField, 'answer' | 'sub_fields'>): string[] {
  if (Array.isArray(field.answer)) return answerParts(field.answer);
  if (field.answer !== null && field.answer !== undefined) return answerParts(field.answer);
  return (field.sub_fields ?? [])
    .map((item) =>
      item.sub_fields && item.sub_fields.length > 0 ? leafAnswers(item.sub_fields).join(' ') : answerParts(item.answer).join(' '),
    )
    .filter((tag) => tag !== '');
}

/** A grouped tag selector's answer `{ group, tag }` as 'group › tag' (spec §2.12); '' when it has neither. */
export function groupedTagText(answer: unknown): string {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return answerParts(answer).join(' › ');
  const { group, tag } = answer as { group?: unknown; tag?: unknown };
  return [group, tag]
    .filter((part): part is string | number => (typeof part === 'string' && part.trim() !== '') || typeof part === 'number')
    .map(String)
    .join(' › ');
}

/** A yes/no or confirmation answer as a boolean; undefined when it is neither. */
export function answerBoolean(answer: unknown): boolean | undefined {
  if (typeof answer === 'boolean') return answer;
  if (typeof answer === 'string') {
    const text = answer.trim().toLowerCase();
    if (['true', 'yes', 'y'].includes(text)) return true;
    if (['false', 'no', 'n'].includes(text)) return false;
  }
  return undefined;
}

/** Distance from an edge within which the scroll buttons switch (spec §2.12). */
export const SCROLL_EDGE_PX = 10;

/**
 * Which scroll buttons show (spec §2.12, D-026): 'scroll to top' once the page is more than 10 px from its top,
 * 'scroll to reviews' until it is within 10 px of its bottom.
 */
export function scrollButtons(scrollY: number, viewportHeight: number, pageHeight: number): { toTop: boolean; toReviews: boolean } {
  return { toTop: scrollY > SCROLL_EDGE_PX, toReviews: pageHeight - (scrollY + viewportHeight) > SCROLL_EDGE_PX };
}
