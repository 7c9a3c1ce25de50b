import { describe, expect, it } from 'vitest';
import { type PiiKind, PII_SETTINGS_OFF, findPii, maskPii, piiVerdict } from './pii';

const kindsIn = (text: string) => findPii(text).map((match) => match.kind);

describe('personal data patterns (spec §3 PII options)', () => {
  it.each<[string, PiiKind]>([
    ['call me at 010-1234-5678 tomorrow', 'phone'],
    ['01012345678', 'phone'],
    ['번호는 010 1234 5678 입니다', 'phone'],
    ['010.9876.5432', 'phone'],
    ['+82 10-1234-5678', 'phone'],
    ['mail kim.minsu+work@example.co.kr please', 'email'],
    ['주민번호 900101-1234567', 'resident_number'],
    ['9001011234567', 'resident_number'],
    ['card 1234-5678-9012-3456', 'credit_card'],
    ['card 1234 5678 9012 3456.', 'credit_card'],
    ['1234567890123456', 'credit_card'],
  ])('finds %s', (text, kind) => {
    expect(kindsIn(text)).toEqual([kind]);
  });

  it.each([
    ['a 12-digit order number', 'order 010123456789 shipped'],
    ['a 10-digit number', 'ticket 0101234567'],
    ['a landline', 'office 02-123-4567'],
    ['a phone number glued to more digits', '3010-1234-5678'],
    ['a 13-digit number that is no birth date', 'ref 9013451234567'],
    ['a 15-digit number', '123456789012345'],
    ['a 17-digit number', '12345678901234567'],
    ['a card number with mixed separators', '1234-5678 9012-3456'],
    ['an at sign without a domain', 'ping @team or me@localhost'],
    ['dates and amounts', 'On 2024-05-01 I paid 1,234,567 won'],
  ])('ignores %s', (_, text) => {
    expect(findPii(text)).toEqual([]);
  });

  it.each([
    ['+44 20 7946 0958', 'call London on +44 20 7946 0958 today'],
    ['+1 415 555 0132', 'US office +1 415 555 0132.'],
    ['+1 (415) 555-0132', '(+1 (415) 555-0132)'],
    ['+4915112345678', 'mobil: +4915112345678'],
  ])('finds the international number %s with its country code', (number, text) => {
    expect(findPii(text)).toEqual([{ kind: 'international_phone', start: text.indexOf(number), end: text.indexOf(number) + number.length }]);
  });

  it.each([
    ['a number without a country code', '020 7946 0958'],
    ['too few digits after the plus', '+44 20 79'],
    ['more than 15 digits', '+44 2079 4609 5812 3456'],
    ['a sum', '3+4 = 7, 10+20 = 30'],
  ])('does not take %s for an international number', (_, text) => {
    expect(findPii(text, ['international_phone'])).toEqual([]);
  });

  it('masks the digits of an international number and keeps its plus and spaces', () => {
    expect(maskPii('ring +44 20 7946 0958', ['international_phone'])).toBe('ring +** ** **** ****');
  });

  it('finds several kinds in order, each once', () => {
    expect(kindsIn('a@b.io, 010-1111-2222 and 4111 1111 1111 1111')).toEqual(['email', 'phone', 'credit_card']);
  });
});

describe('maskPii', () => {
  it('masks digits and the mail name, keeping separators and the domain', () => {
    expect(maskPii('call 010-1234-5678 or mail kim@example.com', ['phone', 'email'])).toBe('call ***-****-**** or mail ***@example.com');
    expect(maskPii('900101-1234567', ['resident_number'])).toBe('******-*******');
    expect(maskPii('1234 5678 9012 3456', ['credit_card'])).toBe('**** **** **** ****');
  });

  it('leaves kinds it was not asked to mask', () => {
    expect(maskPii('010-1234-5678 kim@example.com', ['email'])).toBe('010-1234-5678 ***@example.com');
  });
});

describe('piiVerdict', () => {
  it('sorts the kinds found by the tenant’s action and ignores switched-off kinds', () => {
    const settings = { ...PII_SETTINGS_OFF, phone: 'block', email: 'mask' } as const;
    expect(piiVerdict('010-1234-5678, 010-2222-3333, a@b.io, 900101-1234567', settings)).toEqual({ blocked: ['phone'], masked: ['email'] });
    expect(piiVerdict('nothing here', settings)).toEqual({ blocked: [], masked: [] });
  });
});
