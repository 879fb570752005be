import { describe, expect, it } from 'vitest';
import { batchDocumentName } from './bulk';
import { documentNameFor, documentNameOf, fillNamePattern, nameSubjectOf } from './documents';

describe('documentNameOf', () => {
  it('puts the subject before the date, so documents for different people tell apart', () => {
    expect(documentNameOf('Offer letter', 'Jane Doe', 'Nov 24, 2026')).toBe('Offer letter - Jane Doe - Nov 24, 2026');
  });

  it('leaves the subject out when there is none', () => {
    expect(documentNameOf('Invoice', undefined, 'Nov 24, 2026')).toBe('Invoice - Nov 24, 2026');
  });
});

describe('nameSubjectOf', () => {
  const placeholders = [
    { name: 'amount', type: 'number' as const },
    { name: 'email', type: 'email' as const },
    { name: 'candidate', type: 'text' as const },
    { name: 'role', type: 'text' as const },
  ];

  it('takes the client name first, trimmed', () => {
    expect(nameSubjectOf(placeholders, { client_name: ' Jane Doe ', candidate: 'Ann' })).toBe('Jane Doe');
    expect(nameSubjectOf([], { clientname: 'Acme' })).toBe('Acme');
  });

  it('else the first text field filled in, in the format’s order, never a number or an email', () => {
    expect(nameSubjectOf(placeholders, { amount: '12', email: 'a@b.co', candidate: '  ', role: 'Engineer' })).toBe('Engineer');
    expect(nameSubjectOf(placeholders, { client_name: '   ', candidate: 'Jane Doe', role: 'Engineer' })).toBe('Jane Doe');
    expect(nameSubjectOf(placeholders, { amount: '12' })).toBeUndefined();
  });

  it('cuts a long value', () => {
    const subject = nameSubjectOf(placeholders, { candidate: 'x'.repeat(500) })!;
    expect(subject).toHaveLength(80);
    expect(subject.endsWith('…')).toBe(true);
  });
});

describe('document-name patterns', () => {
  const placeholders = [{ name: 'candidate_name', type: 'text' as const }];
  const format = { name: 'Offer Letter', documentNamePattern: 'Offer Letter – {{candidate_name}}', placeholders };

  it('fill the format’s fields and {{date}}', () => {
    expect(documentNameFor(format, { candidate_name: 'Jane Doe' }, 'Nov 24, 2026')).toBe('Offer Letter – Jane Doe');
    expect(
      documentNameFor(
        { name: 'Lease', documentNamePattern: '{{address}} ({{ Start Date }}) {{date}}', placeholders: [] },
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

  it('fall back to the format’s name, subject and date when there is no pattern or it fills to nothing', () => {
    expect(documentNameFor({ name: 'Offer Letter', placeholders }, { client_name: 'Jane' }, 'Nov 24, 2026')).toBe('Offer Letter - Jane - Nov 24, 2026');
    expect(documentNameFor({ name: 'Offer Letter', documentNamePattern: '  ', placeholders }, {}, 'Nov 24, 2026')).toBe('Offer Letter - Nov 24, 2026');
    expect(documentNameFor({ name: 'Offer Letter', documentNamePattern: '{{other}}', placeholders }, { client_name: 'Acme' }, 'Nov 24, 2026')).toBe(
      'Offer Letter - Acme - Nov 24, 2026',
    );
    // Without a client name, the first text field names it: documents made the same day differ.
    expect(documentNameFor({ name: 'Offer letter', placeholders }, { candidate_name: 'Jane Doe' }, '2026-11-25')).toBe('Offer letter - Jane Doe - 2026-11-25');
  });

  it('name a batch’s documents the same way, with {{row}}, else by subject, never by row', () => {
    expect(batchDocumentName({ ...format, documentNamePattern: 'Offer {{row}} – {{candidate_name}}' }, 7, { candidate_name: 'Jane' }, '2026-11-24')).toBe(
      'Offer 7 – Jane',
    );
    expect(batchDocumentName({ name: 'Offer', placeholders }, 7, { client_name: 'Jane' }, '2026-11-24')).toBe('Offer - Jane');
    expect(batchDocumentName({ name: 'Offer', placeholders }, 7, { candidate_name: 'Ann Lee' }, '2026-11-24')).toBe('Offer - Ann Lee');
    expect(batchDocumentName({ name: 'Offer', placeholders }, 7, {}, '2026-11-24')).toBe('Offer');
  });
});
