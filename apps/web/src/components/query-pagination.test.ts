import { describe, expect, it } from 'vitest';
import { pageCount, TABLE_PAGE_SIZE } from './query-pagination';

describe('table pagination (spec §9)', () => {
  it('pages a table without its own page size by 20 rows (A-140)', () => {
    expect(TABLE_PAGE_SIZE).toBe(20);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(40)).toBe(2);
    expect(pageCount(41)).toBe(3);
  });

  it("pages a list by its own size, and shows one page when there is nothing (B-023's 25)", () => {
    expect(pageCount(26, 25)).toBe(2);
    expect(pageCount(25, 25)).toBe(1);
    expect(pageCount(0)).toBe(1);
  });
});
