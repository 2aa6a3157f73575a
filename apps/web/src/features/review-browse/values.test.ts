import { describe, expect, it } from 'vitest';
import { formatRating } from './values';

describe('formatRating (spec §5)', () => {
  it('rounds displayed ratings to one decimal (E-024)', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(11 / 3)).toBe('3.7');
    expect(formatRating(2.25)).toBe('2.3');
    expect(formatRating(5)).toBe('5.0');
  });

  it('shows nothing for a missing value', () => {
    expect(formatRating(null)).toBe('');
    expect(formatRating(undefined)).toBe('');
    expect(formatRating(Number.NaN)).toBe('');
  });
});
