import { describe, expect, it } from 'vitest';
import { countedText } from '../src/reviews';

const issues = (schema: ReturnType<typeof countedText>, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('a text counted without white space, with the generic messages of spec §5', () => {
  const schema = countedText(10, 20);

  it('under its minimum shows "Content must be at least {minLength} characters long (excluding spaces)" (E-023)', () => {
    expect(issues(schema, 'abc de fgh')).toEqual(['Content must be at least 10 characters long (excluding spaces)']);
    expect(issues(schema, ' a b c d e f g h i \n')).toEqual(['Content must be at least 10 characters long (excluding spaces)']);
    expect(issues(countedText(3, 20), 'ab')).toEqual(['Content must be at least 3 characters long (excluding spaces)']);
    expect(issues(schema, 'abcde fghij')).toEqual([]);
  });

  it('over its maximum shows "Content must not exceed {maxLength} characters (excluding spaces), currently {n}" (E-022)', () => {
    expect(issues(schema, 'abcde fghij klmno pqrst')).toEqual([]);
    expect(issues(schema, 'abcde fghij klmno pqrst u')).toEqual(['Content must not exceed 20 characters (excluding spaces), currently 21']);
  });
});
