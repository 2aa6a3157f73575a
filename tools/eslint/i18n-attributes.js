// Issue 45 item 3: what a person reads or a screen reader says goes through the translation files. A literal in one
// of these JSX attributes stays English in every language ("Programme links" was the footer's `aria-label`).
// Reported: a string literal (or a template's literal part) with a letter in it, written straight into the attribute
// or reached through `? :`, `&&`, `||` and `??`. A value of `t(…)` or any other call or variable is left alone; so are
// strings without letters ("—", "·", "%").

/** Attributes a person or a screen reader meets: the ARIA names and descriptions, the browser's, and Mantine's. */
export const SPOKEN_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  // Mantine shows these as text beside the input (or as the tooltip's, the badge's, the nav link's text).
  'label',
  'description',
]);

const LETTER = /\p{L}/u;

/** The literal strings a value can evaluate to, each with its node. */
function literalsOf(node) {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? [{ node, text: node.value }] : [];
    case 'TemplateLiteral':
      return node.quasis.map((quasi) => ({ node: quasi, text: quasi.value.cooked ?? quasi.value.raw }));
    case 'JSXExpressionContainer':
      return literalsOf(node.expression);
    case 'ConditionalExpression':
      return [...literalsOf(node.consequent), ...literalsOf(node.alternate)];
    case 'LogicalExpression':
      return [...literalsOf(node.left), ...literalsOf(node.right)];
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
      return literalsOf(node.expression);
    default:
      return [];
  }
}

const rule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      literal:
        'The `{{name}}` attribute holds "{{text}}", which a person or a screen reader meets: put it in the locale files and use t() (issue 45 item 3).',
    },
  },
  create(context) {
    return {
      JSXAttribute(node) {
        if (node.name.type !== 'JSXIdentifier' || !SPOKEN_ATTRIBUTES.has(node.name.name)) return;
        for (const { node: literal, text } of literalsOf(node.value)) {
          if (!LETTER.test(text)) continue;
          context.report({ node: literal, messageId: 'literal', data: { name: node.name.name, text: text.trim() } });
        }
      },
    };
  },
};

export default { rules: { 'no-literal-attributes': rule } };
