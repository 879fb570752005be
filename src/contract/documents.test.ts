import { describe, expect, it } from 'vitest';
import { documentNameOf } from './documents';

describe('documentNameOf', () => {
  it('puts the client before the date, so documents for different clients tell apart', () => {
    expect(documentNameOf('Offer letter', { client_name: ' Jane Doe ' }, 'Nov 24, 2026')).toBe('Offer letter - Jane Doe - Nov 24, 2026');
    expect(documentNameOf('Offer letter', { clientname: 'Acme' }, '2026-11-24')).toBe('Offer letter - Acme - 2026-11-24');
  });

  it('leaves the client out when the data names none', () => {
    expect(documentNameOf('Invoice', { client_name: '   ' }, 'Nov 24, 2026')).toBe('Invoice - Nov 24, 2026');
    expect(documentNameOf('Invoice', {}, 'Nov 24, 2026')).toBe('Invoice - Nov 24, 2026');
  });
});
