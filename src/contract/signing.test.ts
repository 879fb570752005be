import { describe, expect, it } from 'vitest';
import { columnPlaceholders } from './bulk.ts';
import { checkDocumentData } from './documents.ts';
import { formatLogicIssues } from './format-logic.ts';
import { ZFormatContent } from './format-content.ts';
import { isSigningPlaceholder, SIGNING_PLACEHOLDER_TYPES, signerRoles, ZPlaceholder, ZPlaceholderList, type TPlaceholderInput } from './placeholders.ts';
import { previewInput } from './preview-input.ts';

const parse = (list: TPlaceholderInput[]) => ZPlaceholderList.parse(list);
const messages = (input: TPlaceholderInput) => {
  const r = ZPlaceholder.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('signing placeholders', () => {
  it('are the four signing types, each for a signer role (Signer 1 when not given)', () => {
    expect(SIGNING_PLACEHOLDER_TYPES).toEqual(['signature', 'initials', 'signed_date', 'signer_name']);
    expect(ZPlaceholder.parse({ name: 'sig', type: 'signature' })).toEqual({ name: 'sig', type: 'signature', required: false, options: [], signer: 1 });
    expect(ZPlaceholder.parse({ name: 'when', type: 'signed_date', signer: 2 }).signer).toBe(2);
    expect(isSigningPlaceholder({ type: 'initials' })).toBe(true);
    expect(isSigningPlaceholder({ type: 'date' })).toBe(false);
  });

  it('leave every other placeholder as it parsed before', () => {
    expect(ZPlaceholder.parse({ name: 'client' })).toEqual({ name: 'client', type: 'text', required: false, options: [] });
  });

  it('refuse a role out of range, and a role on another type', () => {
    expect(ZPlaceholder.safeParse({ name: 's', type: 'signature', signer: 0 }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 's', type: 'signature', signer: 11 }).success).toBe(false);
    expect(ZPlaceholder.safeParse({ name: 's', type: 'signature', signer: 1.5 }).success).toBe(false);
    expect(messages({ name: 'client', type: 'text', signer: 2 })).toEqual([
      'signer: client: only signature, initials, signed date and signer name placeholders have a signer.',
    ]);
  });

  it('refuse what the person generating the document would fill in', () => {
    expect(messages({ name: 'sig', type: 'signature', signer: 2, required: true })).toEqual([
      'required: sig is filled in when Signer 2 signs, so it cannot be required.',
    ]);
    expect(messages({ name: 'sig', type: 'signature', options: ['a'] })).toEqual(['options: sig is filled in when Signer 1 signs, so it has no options.']);
    expect(messages({ name: 'sig', type: 'initials', expression: '1 + 1' })).toEqual([
      'expression: sig is filled in when Signer 1 signs, so it has no formula.',
    ]);
    expect(messages({ name: 'sig', type: 'signer_name', columns: [] })).toEqual(['columns: sig is filled in when Signer 1 signs, so it has no columns.']);
  });

  it('cannot be a list column', () => {
    const r = ZPlaceholder.safeParse({ name: 'items', type: 'list', columns: [{ name: 'sig', type: 'signature' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('A list column cannot be a signing field: signers sign the document once, not once per row.');
  });

  it('name the roles a format uses, sorted, each once', () => {
    const list = parse([
      { name: 'b', type: 'signature', signer: 3 },
      { name: 'a', type: 'signature' },
      { name: 'c', type: 'signed_date', signer: 3 },
      { name: 'd', type: 'text' },
    ]);
    expect(signerRoles(list)).toEqual([1, 3]);
    expect(signerRoles([])).toEqual([]);
  });

  it('cannot be read by formulas', () => {
    const placeholders = parse([
      { name: 'signed_on', type: 'signed_date', signer: 2 },
      { name: 'x', type: 'formula', expression: 'signed_on' },
    ]);
    expect(formatLogicIssues({ elements: [] }, placeholders).map((i) => i.message)).toEqual([
      'x: signed_on is filled in when Signer 2 signs, so formulas cannot use it (at character 1).',
    ]);
  });

  it('cannot be read by conditions', () => {
    const placeholders = parse([{ name: 'sig', type: 'signature', signer: 3 }]);
    const elements = [
      { id: 'p', type: 'paragraph' as const, content: 'x', showIf: { match: 'all' as const, conditions: [{ field: 'sig', op: 'is_empty' as const }] } },
    ];
    expect(formatLogicIssues(ZFormatContent.parse({ elements }), placeholders)).toEqual([
      { path: ['content', 'elements', 0, 'showIf', 'conditions', 0, 'field'], message: 'A condition cannot read sig: it is filled in when Signer 3 signs.' },
    ]);
  });

  it('are neither asked for nor accepted in generated data', () => {
    const placeholders = parse([
      { name: 'client', type: 'text', required: true },
      { name: 'sig', type: 'signature', signer: 2 },
    ]);
    const ok = checkDocumentData(placeholders, { client: 'Acme' });
    expect(ok.fields).toEqual({});
    expect(ok.missing).toEqual([]);
    expect(ok.values).toEqual({ client: 'Acme' });
    const refused = checkDocumentData(placeholders, { client: 'Acme', sig: 'Jane' });
    expect(refused.fields).toEqual({ sig: 'sig is filled in when Signer 2 signs.' });
    expect(refused.values).toEqual({ client: 'Acme' });
  });

  it('get no spreadsheet column', () => {
    const placeholders = parse([
      { name: 'client', type: 'text' },
      { name: 'sig', type: 'signature' },
    ]);
    expect(columnPlaceholders(placeholders).map((p) => p.name)).toEqual(['client']);
  });

  it('stay empty in a preview, so it shows the empty boxes', () => {
    const placeholders = parse([
      { name: 'client', type: 'text' },
      { name: 'sig', type: 'signature' },
    ]);
    const input = previewInput({ content: ZFormatContent.parse({ elements: [] }), placeholders }, {}, false);
    expect(input.data).toEqual({ client: '[Client]' });
    expect(input.placeholders[1]).toEqual(placeholders[1]);
  });
});
