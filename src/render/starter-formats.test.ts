import { describe, expect, it } from 'vitest';
import { checkDocumentData } from '../contract/documents.ts';
import { parsedFormula } from '../contract/filled-values.ts';
import { ZFormatInput } from '../contract/formats.ts';
import { elementTexts, leafElements } from '../contract/format-content.ts';
import { findPlaceholderTags, isSigningPlaceholder, PLACEHOLDER_TYPES, type TListColumn } from '../contract/placeholders.ts';
import { STARTER_FORMATS, type TStarterFormat } from '../contract/starter-formats.ts';
import { renderPdf } from './index.ts';
import { assertValidPdf, pdfPages, pdfText } from './testdata/pdf-tools.ts';

const PAGE_TOKENS = new Set(['page', 'pages']);

function sampleValue(p: { name: string; type: string; options: string[] }, i = 0): string {
  switch (p.type) {
    case 'date':
      return '2026-03-02';
    case 'number':
      return String(1250 + i);
    case 'email':
      return 'jane@example.com';
    case 'tel':
      return '+1 555 0100';
    case 'select':
      return p.options[0] ?? '';
    case 'checkbox':
      return 'false';
    default:
      return `Sample ${p.name}${i ? ` ${i}` : ''}`;
  }
}

/** A plausible value for every placeholder, by type; three rows for a list. */
function sampleData(starter: TStarterFormat): Record<string, unknown> {
  return Object.fromEntries(
    starter.placeholders
      .filter((p) => p.type !== 'formula')
      .map((p) => [
        p.name,
        p.type === 'list'
          ? [1, 2, 3].map((i) => Object.fromEntries((p.columns ?? []).filter((c) => c.type !== 'formula').map((c: TListColumn) => [c.name, sampleValue(c, i)])))
          : sampleValue(p),
      ]),
  );
}

/** Every name a starter uses: tags outside repeating rows, the lists they repeat, what formulas read, what conditions read. */
function usedNames(starter: TStarterFormat): { used: Set<string>; rowTags: { list: string; name: string }[] } {
  const used = new Set<string>();
  const rowTags: { list: string; name: string }[] = [];
  const tagsOf = (texts: string[]) => texts.flatMap((t) => findPlaceholderTags(t).map((tag) => tag.name));
  for (const element of leafElements(starter.content.elements)) {
    const repeated = element.type === 'table' && element.repeat ? element.repeat : undefined;
    const texts = repeated && element.type === 'table' ? element.rows.filter((_, r) => r !== repeated.row).flat() : elementTexts(element);
    for (const name of tagsOf(texts)) used.add(name.split('.')[0]!);
    if (repeated && element.type === 'table') {
      used.add(repeated.list);
      for (const name of tagsOf(element.rows[repeated.row] ?? [])) rowTags.push({ list: repeated.list, name });
    }
  }
  for (const element of starter.content.elements) for (const c of element.showIf?.conditions ?? []) used.add(c.field);
  for (const element of leafElements(starter.content.elements)) for (const c of element.showIf?.conditions ?? []) used.add(c.field);
  for (const text of [starter.content.header?.text ?? '', starter.content.footer?.text ?? '']) for (const name of tagsOf([text])) used.add(name);
  for (const p of starter.placeholders) {
    const expressions = p.type === 'formula' ? [p.expression ?? ''] : (p.columns ?? []).filter((c) => c.type === 'formula').map((c) => c.expression ?? '');
    // A list's formula column reads its own row's columns; anything else it reads is a placeholder.
    const ownColumns = new Set((p.columns ?? []).map((c) => c.name));
    for (const e of expressions) {
      const parsed = parsedFormula(e);
      if ('formula' in parsed) for (const r of parsed.formula.references) if (!ownColumns.has(r)) used.add(r.split('.')[0]!);
    }
  }
  for (const name of PAGE_TOKENS) used.delete(name);
  return { used, rowTags };
}

describe('starter formats', () => {
  it('offers the documents newcomers ask for, each with a unique id', () => {
    expect(STARTER_FORMATS.map((s) => s.id)).toEqual(['offer-letter', 'nda', 'invoice', 'quotation', 'rental-agreement', 'patient-consent', 'certificate']);
  });

  it('together use every placeholder type the person generating fills in', () => {
    const used = new Set(STARTER_FORMATS.flatMap((s) => s.placeholders.map((p) => p.type)));
    // Signing fields are not in the starters yet: a starter's document is complete once generated.
    const filled = PLACEHOLDER_TYPES.filter((t) => !isSigningPlaceholder({ type: t }));
    expect([...used].sort()).toEqual([...filled].sort());
  });

  for (const starter of STARTER_FORMATS) {
    describe(starter.name, () => {
      it('saves as it is, and declares exactly the placeholders it uses, with unique element ids', () => {
        const saved = ZFormatInput.safeParse({ name: starter.name, content: starter.content, placeholders: starter.placeholders });
        expect(saved.success ? [] : saved.error.issues.map((i) => i.message)).toEqual([]);
        const { used, rowTags } = usedNames(starter);
        // Inside a repeating row, every tag is a column of its list or a placeholder.
        for (const { list, name } of rowTags) {
          const columns = starter.placeholders.find((p) => p.name === list)?.columns?.map((c) => c.name) ?? [];
          const column = name.startsWith(`${list}.`) ? name.slice(list.length + 1) : name;
          expect(columns.includes(column) || starter.placeholders.some((p) => p.name === name)).toBe(true);
        }
        expect([...used].sort()).toEqual(starter.placeholders.map((p) => p.name).sort());
        const ids = starter.content.elements.map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const p of starter.placeholders.filter((q) => q.type === 'select')) expect(p.options.length).toBeGreaterThan(1);
      });

      it('renders filled in, with every value printed, no tag left, and every formula computed', () => {
        const data = sampleData(starter);
        const check = checkDocumentData(starter.placeholders, data, starter.content);
        expect(check.fields).toEqual({});
        const { pdf, warnings } = renderPdf({
          format: { content: starter.content, placeholders: starter.placeholders },
          data: check.values,
          assets: {},
          meta: { title: starter.name, creationDate: new Date('2026-03-02T09:00:00Z') },
        });
        assertValidPdf(pdf);
        expect(warnings).toEqual([]);
        const text = pdfText(pdf).replace(/\s+/g, ' ');
        expect(text).not.toContain('{{');
        for (const p of starter.placeholders.filter((q) => q.type === 'text')) expect(text).toContain(data[p.name]);
        expect(pdfPages(pdf).length).toBeLessThanOrEqual(starter.id === 'certificate' ? 1 : 2);
      });
    });
  }

  it('the invoice computes its lines, tax and total to the cent, and notes a reverse charge only when ticked', () => {
    const invoice = STARTER_FORMATS.find((s) => s.id === 'invoice')!;
    const base = {
      ...sampleData(invoice),
      tax_rate: '18',
      items: [
        { description: 'Design', qty: '3', unit_price: '19.99' },
        { description: 'Hosting', qty: '1', unit_price: '0.10' },
        { description: 'Domain', qty: '1', unit_price: '0.20' },
      ],
    };
    const render = (data: Record<string, unknown>) => {
      const check = checkDocumentData(invoice.placeholders, data, invoice.content);
      expect(check.fields).toEqual({});
      const { pdf } = renderPdf({ format: invoice, data: check.values, assets: {}, meta: { title: 'i', creationDate: new Date(0) } });
      return pdfText(pdf).replace(/\s+/g, ' ');
    };
    const taxed = render(base);
    // 59.97 + 0.10 + 0.20 = 60.27; 18% is 10.8486, rounded 10.85; total 71.12.
    expect(taxed).toContain('Design 3 $19.99 $59.97');
    expect(taxed).toContain('Subtotal $60.27 Tax (18%) $10.85 Total due $71.12');
    expect(taxed).not.toContain('Reverse charge');
    const reverse = render({ ...base, reverse_charge: true });
    expect(reverse).toContain('Tax (18%) $0.00 Total due $60.27');
    expect(reverse).toContain('Reverse charge:');
    // Money and the rate print by their displays, so a format in euros reads as German money.
    const euros = { ...invoice, content: { ...invoice.content, locale: 'de-DE', currency: 'EUR' } };
    const check = checkDocumentData(euros.placeholders, { ...base, tax_rate: '19.5' }, euros.content);
    const german = pdfText(renderPdf({ format: euros, data: check.values, assets: {}, meta: { title: 'i', creationDate: new Date(0) } }).pdf).replace(
      /\s+/g,
      ' ',
    );
    expect(german).toContain('Design 3 19,99 € 59,97 €');
    expect(german).toContain('Subtotal 60,27 € Tax (19,5 %) 11,75 € Total due 72,02 €');
  });

  it('prints salaries, rents and deposits as money, not bare numbers', () => {
    const text = (id: string) => {
      const starter = STARTER_FORMATS.find((s) => s.id === id)!;
      const check = checkDocumentData(starter.placeholders, sampleData(starter), starter.content);
      return pdfText(renderPdf({ format: starter, data: check.values, assets: {}, meta: { title: id, creationDate: new Date(0) } }).pdf).replace(/\s+/g, ' ');
    };
    expect(text('offer-letter')).toContain('Annual salary $1,250.00');
    expect(text('rental-agreement')).toContain('Monthly rent $1,250.00, due on day 1,250 of each month');
    expect(text('rental-agreement')).toContain('Security deposit $1,250.00');
  });
});
