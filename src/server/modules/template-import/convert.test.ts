import { describe, expect, it } from 'vitest';
import { MAX_ELEMENTS, MAX_TABLE_COLUMNS, ZFormatContent } from '../../../contract/format-content.ts';
import { importKindOfFileName } from '../../../contract/template-import-files.ts';
import { blocksToDraft, type TBlock } from './blocks.ts';
import { linesToBlocks } from './convert-pdf.ts';
import { convertText, isAllCapsHeading, isNumberedHeading, isTitleCaseHeading } from './convert-txt.ts';
import { guessPlaceholderType, rewriteTags } from './placeholder-tags.ts';
import { draftNameFromFileName } from './template-import.service.ts';

describe('placeholder tags', () => {
  it('rewrites {{name}}, [[name]], <<name>> and «name» to normalised {{name}}', () => {
    const r = rewriteTags('Dear {{ Client Name }}, [[Job Title]] from <<Start Date>> to «EndDate» and {{client name}} again.');
    expect(r.text).toBe('Dear {{client_name}}, {{job_title}} from {{start_date}} to {{enddate}} and {{client_name}} again.');
    expect(r.names).toEqual(['client_name', 'job_title', 'start_date', 'enddate']);
  });

  it('leaves prose alone: comparisons, quotes, wiki-style links with punctuation', () => {
    for (const text of ['if a << b and c >> d', 'a [[1, 2], [3]] matrix', 'il a dit « bonjour » hier', '<<>>', '[[ ]]']) {
      expect(rewriteTags(text)).toEqual({ text, names: [], rejected: [] });
    }
  });

  it('drops emphasis markers that a Word run boundary put inside a tag', () => {
    expect(rewriteTags('**{{client**_name}}**').text).toBe('**{{client_name}}**');
  });

  it('keeps overlong names as typed and reports them; page tokens stay but are not placeholders', () => {
    const long = `{{${'x'.repeat(70)}}}`;
    const r = rewriteTags(`${long} {{a{b}} Page {{page}} of [[pages]]`);
    expect(r.text).toBe(`${long} {{a{b}} Page {{page}} of {{pages}}`);
    expect(r.names).toEqual([]);
    expect(r.rejected).toEqual([long]);
  });

  it.each([
    ['email', 'email'],
    ['client_email', 'email'],
    ['e_mail', 'email'],
    ['mail', 'email'],
    ['work_email_address', 'email'],
    ['date', 'date'],
    ['dob', 'date'],
    ['start_date', 'date'],
    ['date_of_joining', 'date'],
    ['birthday', 'date'],
    ['deadline', 'date'],
    ['phone', 'tel'],
    ['mobile', 'tel'],
    ['tel', 'tel'],
    ['telephone', 'tel'],
    ['contact_number', 'tel'],
    ['home_phone', 'tel'],
    ['amount', 'number'],
    ['total_price', 'number'],
    ['total', 'number'],
    ['salary', 'number'],
    ['cost', 'number'],
    ['late_fee', 'number'],
    ['qty', 'number'],
    ['quantity', 'number'],
    ['client_name', 'text'],
    ['candidate', 'text'],
    ['update_notes', 'text'],
    ['hotel', 'text'],
  ] as const)('guesses %s -> %s', (name, type) => {
    expect(guessPlaceholderType(name)).toBe(type);
  });
});

const kinds = (blocks: TBlock[]) => blocks.map((b) => [b.kind, 'text' in b ? b.text : 'items' in b ? b.items : null]);

describe('plain text', () => {
  it('recognises heading-like lines', () => {
    expect(isAllCapsHeading('TERMS AND CONDITIONS')).toBe(true);
    expect(isAllCapsHeading('NOTE: READ THIS.')).toBe(false);
    expect(isAllCapsHeading('{{NAME}}')).toBe(false);
    expect(isTitleCaseHeading('Terms of the Agreement')).toBe(true);
    expect(isTitleCaseHeading('Terms of the agreement')).toBe(false);
    expect(isTitleCaseHeading('Dear Sir,')).toBe(false);
    expect(isTitleCaseHeading('This Is A Sentence.')).toBe(false);
    expect(isNumberedHeading('1. Introduction')).toBe(true);
    expect(isNumberedHeading('2.3 Scope of Work')).toBe(true);
    expect(isNumberedHeading('IV. Payment')).toBe(true);
    expect(isNumberedHeading('Article 5 Termination')).toBe(true);
    expect(isNumberedHeading('1. buy milk')).toBe(false);
    expect(isNumberedHeading('1. The parties agree to the following terms.')).toBe(false);
  });

  it('keeps a Title Case line at the very end (a signature) and sentence-like lines as paragraphs', () => {
    expect(kinds(convertText('Thank you for your time.\n\nJane Smith\n'))).toEqual([
      ['paragraph', 'Thank you for your time.'],
      ['paragraph', 'Jane Smith'],
    ]);
  });

  it('makes lists of bulleted and numbered blocks, and splits a Markdown heading out of its block', () => {
    expect(kinds(convertText('Intro line\n## Steps\n1. Sign\n2) Return\n\n* one\n• two'))).toEqual([
      ['paragraph', 'Intro line'],
      ['heading', 'Steps'],
      ['list', ['Sign', 'Return']],
      ['list', ['one', 'two']],
    ]);
  });

  it('puts an ALL CAPS first line above its paragraph', () => {
    expect(kinds(convertText('PAYMENT\nThe client pays monthly.\nBy transfer.'))).toEqual([
      ['heading', 'PAYMENT'],
      ['paragraph', 'The client pays monthly.\nBy transfer.'],
    ]);
  });
});

describe('PDF lines', () => {
  const line = (text: string, y: number, opts: Partial<{ size: number; x: number; right: number; page: number }> = {}) => ({
    page: opts.page ?? 1,
    y,
    x: opts.x ?? 72,
    right: opts.right ?? 520,
    size: opts.size ?? 12,
    text,
  });

  it('joins wrapped lines, undoes hyphenation, keeps short lines as line breaks, and starts paragraphs at gaps', () => {
    const blocks = linesToBlocks([
      line('Title Here', 760, { size: 20, right: 200 }),
      line('This is a long line of text that wraps onto the next line and con-', 720),
      line('tinues here until it ends.', 706, { right: 300 }),
      line('John Smith', 670, { right: 150 }),
      line('12 High Street', 656, { right: 170 }),
      line('London', 642, { right: 120 }),
      line('• First point', 610, { right: 200 }),
      line('• Second point that is long enough to wrap', 596),
      line('over two lines', 582, { x: 84, right: 180 }),
    ]);
    expect(kinds(blocks)).toEqual([
      ['heading', 'Title Here'],
      ['paragraph', 'This is a long line of text that wraps onto the next line and continues here until it ends.'],
      ['paragraph', 'John Smith\n12 High Street\nLondon'],
      ['list', ['First point', 'Second point that is long enough to wrap over two lines']],
    ]);
  });

  it('continues a paragraph over a page break when the sentence does', () => {
    const blocks = linesToBlocks([line('The parties agree that the', 100), line('services start on the first day.', 760, { page: 2, right: 300 })]);
    expect(kinds(blocks)).toEqual([['paragraph', 'The parties agree that the services start on the first day.']]);
  });
});

describe('blocks to a draft', () => {
  it('keeps within the content limits and says what was cut', () => {
    const many: TBlock[] = Array.from({ length: MAX_ELEMENTS + 5 }, (_, i) => ({ kind: 'paragraph', text: `P ${i} {{n${i}}}` }));
    const wide: TBlock = { kind: 'table', headerRow: false, rows: [Array.from({ length: MAX_TABLE_COLUMNS + 3 }, (_, i) => `c${i}`)] };
    const draft = blocksToDraft([wide, ...many]);
    expect(draft.elements).toHaveLength(MAX_ELEMENTS);
    expect(draft.warnings.join(' ')).toMatch(/only the first 500 were imported/);
    expect(draft.warnings.join(' ')).toMatch(/more than 20 columns/);
    // Placeholders of cut elements are not added; and the limit of 200 applies.
    expect(draft.placeholders).toHaveLength(200);
    expect(draft.warnings.join(' ')).toMatch(/more than 200 placeholders/);
    const first = draft.elements[0]!;
    expect(first.type === 'table' && first.rows[0]!.length).toBe(MAX_TABLE_COLUMNS);
    expect(ZFormatContent.safeParse({ elements: draft.elements }).success).toBe(true);
  });

  it('splits text longer than an element holds and pads table rows to one width', () => {
    const long = 'word '.repeat(5_000).trim();
    const draft = blocksToDraft([
      { kind: 'paragraph', text: long },
      { kind: 'table', headerRow: true, rows: [['a', 'b', 'c'], ['d']] },
    ]);
    expect(draft.elements.map((e) => e.type)).toEqual(['paragraph', 'paragraph', 'table']);
    const table = draft.elements[2]!;
    expect(table.type === 'table' && table.rows).toEqual([
      ['a', 'b', 'c'],
      ['d', '', ''],
    ]);
    expect(ZFormatContent.safeParse({ elements: draft.elements }).success).toBe(true);
  });
});

describe('file names', () => {
  it('names the draft after the file and knows the kinds by extension', () => {
    expect(draftNameFromFileName('offer_letter-v2.DOCX')).toBe('Offer letter-v2');
    expect(draftNameFromFileName('NDA_for ACME.txt')).toBe('NDA for ACME');
    expect(draftNameFromFileName('C:\\Users\\me\\NDA  final.pdf')).toBe('NDA final');
    expect(draftNameFromFileName('.txt')).toBe('Imported Template');
    expect(importKindOfFileName('a.Docx')).toBe('docx');
    expect(importKindOfFileName('a.pdf ')).toBe('pdf');
    expect(importKindOfFileName('a.doc')).toBeUndefined();
    expect(importKindOfFileName('txt')).toBeUndefined();
  });
});
