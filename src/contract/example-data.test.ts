import { describe, expect, it } from 'vitest';
import { checkDocumentData } from './documents.ts';
import { EXAMPLE_DATE, exampleData } from './example-data.ts';
import { ZPlaceholderList } from './placeholders.ts';
import { STARTER_FORMATS } from './starter-formats/index.ts';

describe('exampleData', () => {
  it('sends each type as an API client would: numbers, booleans, ISO dates, a select’s first option', () => {
    const placeholders = ZPlaceholderList.parse([
      { name: 'client_name', required: true },
      { name: 'client_email', type: 'email' },
      { name: 'invoice_number' },
      { name: 'phone', type: 'tel' },
      { name: 'notes', type: 'textarea', label: 'Notes for the team' },
      { name: 'qty', type: 'number' },
      { name: 'annual_salary', type: 'number' },
      { name: 'tax_rate', type: 'number' },
      { name: 'start', type: 'date' },
      { name: 'team', type: 'select', options: ['Sales', 'Support'] },
      { name: 'empty_choice', type: 'select' },
      { name: 'consent', type: 'checkbox', required: true },
      { name: 'newsletter', type: 'checkbox' },
      { name: 'total', type: 'formula', expression: 'qty * annual_salary' },
      { name: 'signature', type: 'signature' },
    ]);
    expect(exampleData(placeholders)).toEqual({
      client_name: 'Jane Doe',
      client_email: 'jane.doe@example.com',
      invoice_number: 'A-1001',
      phone: '+1 555 010 0100',
      notes: 'Notes for the team',
      qty: 2,
      annual_salary: 1200,
      tax_rate: 10,
      start: EXAMPLE_DATE,
      team: 'Sales',
      consent: true,
      newsletter: false,
    });
  });

  it('sends a list as rows of its columns, as many as it needs, formulas left out', () => {
    const [items] = ZPlaceholderList.parse([
      {
        name: 'items',
        type: 'list',
        minItems: 2,
        columns: [
          { name: 'description', required: true },
          { name: 'qty', type: 'number' },
          { name: 'amount', type: 'formula', expression: 'qty * 2' },
        ],
      },
    ]);
    expect(exampleData([items!])).toEqual({
      items: [
        { description: 'Description', qty: 2 },
        { description: 'Description', qty: 2 },
      ],
    });
    expect(exampleData([{ ...items!, minItems: undefined }]).items).toHaveLength(1);
  });

  it.each(STARTER_FORMATS.map((s) => [s.name, s] as const))('fills every field %s asks for, with no value refused', (_name, starter) => {
    const check = checkDocumentData(starter.placeholders, exampleData(starter.placeholders), starter.content);
    expect(check.fields).toEqual({});
    expect(check.missing).toEqual([]);
  });
});
