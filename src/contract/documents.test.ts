import { describe, expect, it } from 'vitest';
import { batchDocumentName } from './bulk';
import { documentNameFor, documentNameOf, fillNamePattern } from './documents';

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

describe('document-name patterns', () => {
  const format = { name: 'Offer Letter', documentNamePattern: 'Offer Letter – {{candidate_name}}' };

  it('fill the format’s fields and {{date}}', () => {
    expect(documentNameFor(format, { candidate_name: 'Jane Doe' }, 'Nov 24, 2026')).toBe('Offer Letter – Jane Doe');
    expect(
      documentNameFor(
        { name: 'Lease', documentNamePattern: '{{address}} ({{ Start Date }}) {{date}}' },
        { address: '1 Main St', start_date: '2026-03-01' },
        '2026-11-24',
      ),
    ).toBe('1 Main St (2026-03-01) 2026-11-24');
  });

  it('tidy what an empty value leaves: no dangling or doubled separators, single spaces', () => {
    expect(fillNamePattern('Offer – {{name}}', () => '')).toBe('Offer');
    expect(fillNamePattern('{{a}} - {{b}} - {{c}}', (n) => (n === 'b' ? '' : n.toUpperCase()))).toBe('A - C');
    expect(fillNamePattern('{{a}} | {{b}}', (n) => (n === 'a' ? '' : 'B'))).toBe('B');
    expect(fillNamePattern('Invoice   {{no}}', () => ' 42 ')).toBe('Invoice 42');
    expect(fillNamePattern('Jean-Luc {{x}}', () => '2026-11-24')).toBe('Jean-Luc 2026-11-24');
  });

  it('fall back to the format’s name, client and date when there is no pattern or it fills to nothing', () => {
    expect(documentNameFor({ name: 'Offer Letter' }, { client_name: 'Jane' }, 'Nov 24, 2026')).toBe('Offer Letter - Jane - Nov 24, 2026');
    expect(documentNameFor({ name: 'Offer Letter', documentNamePattern: '  ' }, {}, 'Nov 24, 2026')).toBe('Offer Letter - Nov 24, 2026');
    expect(documentNameFor({ name: 'Offer Letter', documentNamePattern: '{{candidate_name}}' }, { client_name: 'Acme' }, 'Nov 24, 2026')).toBe(
      'Offer Letter - Acme - Nov 24, 2026',
    );
  });

  it('name a batch’s documents the same way, with {{row}}, else by client or row', () => {
    expect(batchDocumentName({ name: 'Offer', documentNamePattern: 'Offer {{row}} – {{candidate_name}}' }, 7, { candidate_name: 'Jane' }, '2026-11-24')).toBe(
      'Offer 7 – Jane',
    );
    expect(batchDocumentName({ name: 'Offer' }, 7, { client_name: 'Jane' }, '2026-11-24')).toBe('Offer - Jane');
    expect(batchDocumentName({ name: 'Offer' }, 7, {}, '2026-11-24')).toBe('Offer - row 7');
  });
});
