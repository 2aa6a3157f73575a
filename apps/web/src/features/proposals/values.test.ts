import { describe, expect, it } from 'vitest';
import { answerBoolean, answerParts, displayTitle, formatFunds, groupedTagText, isWebUrl, scrollButtons, tagItems } from './values';

describe('formatFunds (spec §2.11, §9: no decimals, with the currency)', () => {
  it('groups thousands and names the currency', () => {
    expect(formatFunds(150000, 'ADA')).toBe('150,000 ADA');
    expect(formatFunds(2500, 'USDM')).toBe('2,500 USDM');
  });
  it('drops decimals, rounding half away from zero', () => {
    expect(formatFunds(1234.5, 'ADA')).toBe('1,235 ADA');
    expect(formatFunds(0.4, 'ADA')).toBe('0 ADA');
    expect(formatFunds(-0.4, 'ADA')).toBe('0 ADA');
  });
  it('reads ADA when no currency is given, and empty when there is no amount', () => {
    expect(formatFunds(1)).toBe('1 ADA');
    expect(formatFunds(null, 'ADA')).toBe('');
    expect(formatFunds(undefined)).toBe('');
    expect(formatFunds(Number.NaN)).toBe('');
  });
});

describe('isWebUrl', () => {
  it('accepts https, and http unless https is required', () => {
    expect(isWebUrl('https://example.com/a')).toBe(true);
    expect(isWebUrl('http://example.com')).toBe(true);
    expect(isWebUrl('http://example.com', true)).toBe(false);
    expect(isWebUrl(' https://example.com ', true)).toBe(true);
  });
  it('refuses script and data addresses, relative paths and non-strings', () => {
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('data:text/html,<b>x</b>')).toBe(false);
    expect(isWebUrl('/relative')).toBe(false);
    expect(isWebUrl(42)).toBe(false);
  });
});

describe('displayTitle', () => {
  it('turns template keys into words', () => {
    expect(displayTitle('informational_content')).toBe('Informational content');
    expect(displayTitle('question')).toBe('Question');
  });
  it('keeps real titles', () => {
    expect(displayTitle('Proposal setup')).toBe('Proposal setup');
    expect(displayTitle("Project ID's")).toBe("Project ID's");
    expect(displayTitle(null)).toBe('');
  });
});

describe('answers', () => {
  it('answerParts flattens scalars, lists and objects', () => {
    expect(answerParts('a')).toEqual(['a']);
    expect(answerParts(3)).toEqual(['3']);
    expect(answerParts(['a', 2, { x: 'b' }])).toEqual(['a', '2', 'b']);
    expect(answerParts(null)).toEqual([]);
  });
  it('tagItems shows strings, object values and the items the server read into fields', () => {
    expect(tagItems({ answer: ['one', 'two'] })).toEqual(['one', 'two']);
    expect(tagItems({ answer: [{ project_id: '1234567' }, { project_id: '7654321' }] })).toEqual(['1234567', '7654321']);
    expect(
      tagItems({
        answer: null,
        sub_fields: [
          { ref: 'item', title: 'Project 1', sub_fields: [{ ref: null, title: 'Project ID', answer: '1234567' }] },
          { ref: 'item', title: 'Project 2', sub_fields: [{ ref: null, title: 'Project ID', answer: '7654321' }] },
        ],
      }),
    ).toEqual(['1234567', '7654321']);
    expect(tagItems({ answer: null, sub_fields: [] })).toEqual([]);
  });
  it("groupedTagText reads 'group › tag'", () => {
    expect(groupedTagText({ group: 'DeFi', tag: 'Staking' })).toBe('DeFi › Staking');
    expect(groupedTagText({ group: 'DeFi' })).toBe('DeFi');
    expect(groupedTagText({ group: '', tag: 'Staking' })).toBe('Staking');
    expect(groupedTagText('plain')).toBe('plain');
    expect(groupedTagText(null)).toBe('');
  });
  it('answerBoolean reads booleans and yes/no words', () => {
    expect(answerBoolean(true)).toBe(true);
    expect(answerBoolean('Yes')).toBe(true);
    expect(answerBoolean('false')).toBe(false);
    expect(answerBoolean('maybe')).toBeUndefined();
    expect(answerBoolean(1)).toBeUndefined();
  });
});

describe('scrollButtons (spec §2.12: they switch at 10 px from the top or the bottom)', () => {
  const viewport = 800;
  const page = 3000;
  it('at the top offers only scroll to reviews', () => {
    expect(scrollButtons(0, viewport, page)).toEqual({ toTop: false, toReviews: true });
    expect(scrollButtons(10, viewport, page)).toEqual({ toTop: false, toReviews: true });
  });
  it('past 10 px from the top offers scroll to top too', () => {
    expect(scrollButtons(11, viewport, page)).toEqual({ toTop: true, toReviews: true });
  });
  it('within 10 px of the bottom offers only scroll to top', () => {
    expect(scrollButtons(page - viewport - 10, viewport, page)).toEqual({ toTop: true, toReviews: false });
    expect(scrollButtons(page - viewport - 11, viewport, page)).toEqual({ toTop: true, toReviews: true });
    expect(scrollButtons(page - viewport, viewport, page)).toEqual({ toTop: true, toReviews: false });
  });
  it('offers neither on a page that does not scroll', () => {
    expect(scrollButtons(0, viewport, viewport)).toEqual({ toTop: false, toReviews: false });
  });
});
