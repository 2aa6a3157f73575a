/**
 * The pseudo-locale (issue 31), for tests only: every English string with its letters accented and 40 % more
 * characters in words, inside brackets — a translation longer than the English, in letters a font must have, whose
 * ends show whether anything clipped it. Placeholders (`{{count}}`), nestings (`$t(…)`) and tags (`<0>…</0>`) stay as
 * they are, so that the strings work as the English ones do.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index]!,
  ]),
);
const PADDING = ['ŵöŕđ', 'ļöñĝéŕ', 'ţéẋţ', 'ƒöŕ', 'ţŕåñšļåţîöñ', 'åñđ', 'ɱöŕé'];
/** The parts a translation keeps as they are. */
const KEPT = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[a-zA-Z0-9]+\s*\/?>)/;

export function pseudoText(text: string): string {
  const parts = text.split(KEPT);
  const accented = parts.map((part, index) => (index % 2 === 1 ? part : [...part].map((c) => ACCENTED[c] ?? c).join(''))).join('');
  const visible = parts.filter((_, index) => index % 2 === 0).join('').length;
  let padding = '';
  for (let i = 0; padding.length < Math.ceil(visible * 0.4); i += 1) padding += ` ${PADDING[i % PADDING.length]}`;
  return `[${accented}${padding.slice(0, Math.max(0, Math.ceil(visible * 0.4)))}]`;
}

export function pseudoStrings<T extends Record<string, unknown>>(strings: T): T {
  const walk = (value: unknown): unknown =>
    typeof value === 'string'
      ? pseudoText(value)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]))
        : value;
  return walk(strings) as T;
}
