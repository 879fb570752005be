import type { TFormatContentInput } from '../../contract/format-content.ts';
import type { TPlaceholderInput } from '../../contract/placeholders.ts';

/*
 * Reference formats for the visual regression test: every element type and option on one
 * page, a table that continues onto a second page, and a sheet of every script the fallback
 * chain covers.
 */

export const REFERENCE_ASSET = '/api/assets/reference-logo';

const placeholders: TPlaceholderInput[] = [
  { name: 'client', type: 'text' },
  { name: 'due', type: 'date' },
  { name: 'amount', type: 'number' },
];

export const REFERENCE_DATA = { client: 'Jürgen Weiß', due: '2025-03-05', amount: '1234.5' };

export const REFERENCE_FORMATS: Record<string, { content: TFormatContentInput; placeholders: TPlaceholderInput[] }> = {
  elements: {
    placeholders,
    content: {
      header: { text: 'ACME Services Ltd', align: 'left' },
      footer: { text: 'Page {{page}} of {{pages}}', align: 'center' },
      elements: [
        { id: 'h1', type: 'heading', content: 'Invoice for {{client}}', fontSize: 'text-3xl' },
        { id: 'h2', type: 'heading', content: 'Centred underlined italic', fontSize: 'text-xl', align: 'center', bold: false, italic: true, underline: true },
        {
          id: 'p1',
          type: 'paragraph',
          align: 'justify',
          content:
            'This justified paragraph has **bold words**, *italic words* and a placeholder: {{amount}} due on {{due}}. It runs long enough to wrap over several lines so the spacing between words stretches to both margins.',
        },
        { id: 'p2', type: 'paragraph', align: 'right', content: 'Right-aligned line\nwith a forced break', style: { color: '#1d4ed8' } },
        { id: 'p3', type: 'paragraph', content: 'Times New Roman at 18 px', style: { fontFamily: 'Times New Roman', fontSize: 18 } },
        { id: 'p4', type: 'paragraph', content: 'Inter at 14 px in red', style: { fontFamily: 'Inter', fontSize: 14, color: '#dc2626' } },
        { id: 'l1', type: 'list', items: ['Bulleted item one', 'Bulleted item **two**'] },
        { id: 'l2', type: 'list', items: ['Numbered first', 'Numbered second', 'Numbered third'], listStyle: 'numbered' },
        { id: 'i1', type: 'image', src: REFERENCE_ASSET, width: 120, height: 120, align: 'center' },
        { id: 'i2', type: 'image', src: '/api/assets/missing', width: 200, height: 60, align: 'right' },
        {
          id: 't1',
          type: 'table',
          headerRow: true,
          columnWidths: [3, 1, 2],
          rows: [['Item', 'Qty', 'Price'], ...Array.from({ length: 28 }, (_, i) => [`Service item ${i + 1}`, String(i + 1), `€ ${(i + 1) * 10}.00`])],
        },
      ],
    },
  },
  unicode: {
    placeholders,
    content: {
      elements: [
        { id: 'h', type: 'heading', content: 'Unicode sheet', fontSize: 'text-2xl' },
        { id: 'a', type: 'paragraph', content: 'Latin: Crème brûlée, façade, naïve, Øresund, Łódź, Straße, Dvořák, Œuvre.' },
        { id: 'b', type: 'paragraph', content: 'Greek: Καλημέρα κόσμε — ξεσκεπάζω την ψυχοφθόρα βδελυγμία.' },
        { id: 'c', type: 'paragraph', content: 'Cyrillic: Съешь же ещё этих мягких французских булок, да выпей чаю.' },
        { id: 'd', type: 'paragraph', content: 'Currency: ₹ 1,250.00 · € 99.90 · £ 45.00 · ¥ 3,000 · “quotes” ‘single’ – dash… ©®™' },
        { id: 'e', type: 'paragraph', content: 'नमस्ते दुनिया — क्षत्रिय, श्रीमान्, द्वार, हिन्दी, प्रत्येक, कृपया, ज्ञान, रुपये' },
        { id: 'f', type: 'paragraph', content: 'مرحبا بالعالم — فاتورة رقم ١٢٣ للعميل', align: 'right' },
        { id: 'g', type: 'paragraph', content: 'Mixed: the client لقد وصلت الفاتورة paid ₹ 500 for सेवा today.' },
        { id: 'h2', type: 'paragraph', content: 'Serif: Καλημέρα, Съешь, Łódź, ₹ 10', style: { fontFamily: 'Times New Roman' } },
        { id: 'h3', type: 'paragraph', content: '**Bold: नमस्ते مرحبا Ωμέγα**' },
      ],
    },
  },
};
