import { FOOTER, type TStarterFormatInput } from './shared.ts';

export const nda: TStarterFormatInput = {
  id: 'nda',
  name: 'Mutual NDA',
  description: 'A two-way non-disclosure agreement for early business talks.',
  category: 'Legal',
  content: {
    style: { fontFamily: 'Times New Roman', fontSize: 14, color: '#111827' },
    footer: FOOTER,
    elements: [
      { id: 'nda-1', type: 'heading', level: 1, content: 'Mutual Non-Disclosure Agreement', fontSize: 'text-2xl', align: 'center' },
      {
        id: 'nda-2',
        type: 'paragraph',
        align: 'center',
        content: 'Effective {{effective_date}}',
        style: { color: '#4b5563' },
      },
      {
        id: 'nda-3',
        type: 'paragraph',
        content:
          'This agreement is made between **{{party_a_name}}**, of {{party_a_address}} ("Party A"), and **{{party_b_name}}**, of {{party_b_address}} ("Party B"), who wish to discuss {{purpose}} (the "Purpose").',
      },
      {
        id: 'nda-4',
        type: 'list',
        listStyle: 'numbered',
        items: [
          '**Confidential information.** Any information one party discloses to the other for the Purpose, in any form, that is marked confidential or would reasonably be understood to be confidential.',
          "**Obligations.** Each party will use the other's confidential information only for the Purpose, protect it with at least reasonable care, and share it only with people who need to know it and are bound by similar duties.",
          '**Exclusions.** These obligations do not apply to information that is public through no fault of the recipient, was already known to it, is independently developed, or must be disclosed by law.',
          '**Term.** This agreement lasts {{term_years}} years from the effective date. The duty of confidence survives its end for the same period.',
          "**Return of information.** On request, each party will return or destroy the other's confidential information.",
          "**No licence.** Nothing in this agreement grants any right in the other party's intellectual property.",
          '**Governing law.** This agreement is governed by the laws of {{governing_law}}.',
        ],
      },
      {
        id: 'nda-5',
        type: 'table',
        headerRow: true,
        columnWidths: [50, 50],
        rows: [
          ['Party A', 'Party B'],
          ['{{party_a_name}}', '{{party_b_name}}'],
          ['Signature:', 'Signature:'],
          ['Name: {{party_a_signatory}}', 'Name: {{party_b_signatory}}'],
          ['Date:', 'Date:'],
        ],
      },
    ],
  },
  placeholders: [
    { name: 'effective_date', type: 'date', required: true },
    { name: 'party_a_name', type: 'text', required: true, label: 'Party A name' },
    { name: 'party_a_address', type: 'textarea', required: true, label: 'Party A address' },
    { name: 'party_a_signatory', type: 'text', required: true, label: 'Party A signatory' },
    { name: 'party_b_name', type: 'text', required: true, label: 'Party B name' },
    { name: 'party_b_address', type: 'textarea', required: true, label: 'Party B address' },
    { name: 'party_b_signatory', type: 'text', required: true, label: 'Party B signatory' },
    { name: 'purpose', type: 'text', required: true, label: 'Purpose of the talks' },
    { name: 'term_years', type: 'number', required: true, label: 'Term (years)' },
    {
      name: 'governing_law',
      type: 'select',
      required: true,
      options: ['England and Wales', 'the State of New York', 'the State of California', 'Delaware', 'India', 'Germany'],
    },
  ],
};
