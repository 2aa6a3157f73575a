import { describe, expect, it } from 'vitest';
import { validationMessages } from '../src/messages';
import { messages } from '../src/rules';

describe('validation message keys', () => {
  it('every key a schema uses has its English text (A-129…A-134)', () => {
    for (const key of Object.values(messages)) {
      expect(key.startsWith('validation.')).toBe(true);
      expect(validationMessages, key).toHaveProperty(key.slice('validation.'.length));
    }
  });
});
