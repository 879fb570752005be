import { z } from 'zod';
import type { TFormatInput } from './formats.ts';

/** The landing page's live demo: a short form a signed-out visitor fills to get a real PDF. */
export const ZDemoRenderBody = z.object({
  client_name: z.string().trim().min(1, 'Enter a name.').max(80),
  position: z.string().trim().min(1, 'Enter a position.').max(80),
  start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick a start date.'),
  salary: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'Enter a salary as a number.'),
});
export type TDemoRenderBody = z.infer<typeof ZDemoRenderBody>;

export const DEMO_BODY_LIMIT_BYTES = 2 * 1024;
export const DEMO_REQUESTS_PER_MINUTE = 10;

export const DEMO_FORMAT: TFormatInput = {
  name: 'Offer letter (demo)',
  content: {
    elements: [
      { id: 'h', type: 'heading', content: 'Offer of Employment', fontSize: 'text-3xl', align: 'left', bold: true },
      { id: 'p1', type: 'paragraph', content: 'Dear {{client_name}},' },
      {
        id: 'p2',
        type: 'paragraph',
        content:
          'We are delighted to offer you the position of **{{position}}** at Acme Studio, starting on {{start_date}}. Your annual salary will be ${{salary}}.',
      },
      {
        id: 'l',
        type: 'list',
        listStyle: 'bulleted',
        items: ['25 days of paid leave', 'Private health insurance', 'A learning budget of $1,500 a year'],
      },
      {
        id: 't',
        type: 'table',
        headerRow: true,
        rows: [
          ['Item', 'Detail'],
          ['Position', '{{position}}'],
          ['Start date', '{{start_date}}'],
          ['Salary', '${{salary}}'],
        ],
      },
      { id: 'p3', type: 'paragraph', content: 'Made with Formwork — build this template yourself for free.' },
    ],
  },
  placeholders: [
    { name: 'client_name', label: 'Full name', type: 'text', required: true },
    { name: 'position', type: 'text', required: true },
    { name: 'start_date', type: 'date', required: true },
    { name: 'salary', type: 'number', required: true },
  ],
};
