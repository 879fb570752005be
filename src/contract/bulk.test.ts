import { describe, expect, it } from 'vitest';
import { columnKey, columnLetter } from './bulk';

describe('columnLetter', () => {
  it('names 0-based columns the way a spreadsheet shows them', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16_383].map(columnLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD']);
  });
});

describe('columnKey', () => {
  it('ignores case, spacing, underscores, hyphens and the required marker', () => {
    expect(new Set(['Client Name', 'client_name', 'client-name', ' CLIENT   NAME ', 'ClientName', 'Client name *'].map(columnKey))).toEqual(
      new Set(['clientname']),
    );
    expect(columnKey('Ｃｌｉｅｎｔ')).toBe('client');
    expect(columnKey('Amount')).not.toBe(columnKey('Amounts'));
  });
});
