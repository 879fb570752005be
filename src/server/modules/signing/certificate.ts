import type { TFilledValues, TListRow } from '../../../contract/filled-values.ts';
import { ZRenderableFormat, type TElementInput } from '../../../contract/format-content.ts';
import { MAX_LIST_ROWS, signerLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import { MAX_SIGNERS, signatureEventText } from '../../../contract/signature-requests.ts';
import type { TSignatureMark, TSigningInput } from '../../../contract/signing.ts';
import type { renderPdf } from '../../../render/index.ts';

/*
 * The certificate of completion (docs/e-signing.md): pages appended to a signed document before it
 * is sealed, recording who signed, when, from where, and the audit trail. It is a Formwork format
 * printed by our own renderer, so names in any script draw with the document's fonts and each
 * signature prints in the same signing box as in the document itself.
 */

export type TCertificateInput = {
  requestId: string;
  documentName: string;
  /** The PDF that was sent for signature. */
  documentSha256: string;
  sentAt: Date;
  completedAt: Date;
  senderName: string;
  senderEmail: string;
  consent: { version: string; text: string };
  signers: {
    name: string;
    email: string;
    /** 1 is "Signer 1". */
    role: number;
    order: number;
    viewedAt: Date | null;
    consentedAt: Date | null;
    signedAt: Date;
    ip: string | null;
    userAgent: string | null;
    signature: TSignatureMark;
  }[];
  cc: string[];
  /** The audit trail, oldest first. */
  events: { at: Date; type: string; who: string | null; ip: string | null }[];
  /** The trail's last hash. */
  auditHead: string;
  /** Where a reader checks the seal (the installation's /verify page); without it the path alone is named. */
  verifyUrl?: string;
};

/** What renderPdf takes: the signatures come in as `signing` stamps, so the certificate reuses the signing boxes. */
export type TCertificateRender = Parameters<typeof renderPdf>[0] & { signing: TSigningInput };

const NONE = '—';

/** "2026-11-26 05:12:03 UTC": the audit trail keeps UTC, and so does the certificate. */
export function certificateTime(at: Date | null): string {
  if (!at || Number.isNaN(at.getTime())) return NONE;
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const text = (name: string): TPlaceholder => ({ name, type: 'text', required: false, options: [] });

const row = (label: string, value: string): string[] => [`**${label}**`, value];

/**
 * The certificate as a render request: a format whose text is all tags, the values as data (so a
 * name or user agent is printed literally, never read as markup or as a tag), and each signer's
 * signature as the `signing` stamp of a signature placeholder of its own (its place in the list).
 */
export function certificateRender(input: TCertificateInput): TCertificateRender {
  const data: TFilledValues = {
    request_id: input.requestId,
    document_name: input.documentName,
    document_sha256: input.documentSha256,
    sent_at: certificateTime(input.sentAt),
    completed_at: certificateTime(input.completedAt),
    sender: `${input.senderName} <${input.senderEmail}>`,
    cc: input.cc.length > 0 ? input.cc.join(', ') : 'None',
    consent_version: input.consent.version,
    consent_text: input.consent.text,
    audit_head: input.auditHead,
    event_count: String(input.events.length),
    verify_url: input.verifyUrl ?? '/verify',
  };
  const placeholders: TPlaceholder[] = Object.keys(data).map(text);

  const elements: TElementInput[] = [
    { id: 'title', type: 'heading', content: 'Certificate of completion', fontSize: 'text-3xl', level: 1 },
    {
      id: 'intro',
      type: 'paragraph',
      content: 'This certificate records how the document named below was sent and signed electronically with Formwork, and is part of the sealed PDF.',
    },
    {
      id: 'summary',
      type: 'table',
      // Each row is a label and its value: the label is the row's header for a screen reader.
      headerColumn: true,
      columnWidths: [1, 3],
      rows: [
        row('Document', '{{document_name}}'),
        row('Request ID', '{{request_id}}'),
        row('Original SHA-256', '{{document_sha256}}'),
        row('Sent by', '{{sender}}'),
        row('Sent', '{{sent_at}}'),
        row('Completed', '{{completed_at}}'),
        row('Copies to', '{{cc}}'),
      ],
    },
    { id: 'consent-heading', type: 'heading', content: 'Consent to sign electronically', fontSize: 'text-xl', level: 2 },
    {
      id: 'consent-version',
      type: 'paragraph',
      content: 'The consent each signer was asked for, version {{consent_version}}; when each gave it is listed under Signers.',
    },
    { id: 'consent-text', type: 'paragraph', content: '{{consent_text}}', italic: true },
    { id: 'signers-heading', type: 'heading', content: 'Signers', fontSize: 'text-xl', level: 2 },
  ];

  const signing: TSigningInput = { signers: {} };
  const signerRows: string[][] = [['Signer', 'Signature']];
  const signers = [...input.signers].sort((a, b) => a.order - b.order || a.role - b.role);
  // A request has at most MAX_SIGNERS signers, so each gets a signature slot of its own.
  if (signers.length > MAX_SIGNERS) throw new RangeError(`A certificate lists at most ${MAX_SIGNERS} signers.`);
  for (const [index, signer] of signers.entries()) {
    // The certificate's own signing slot (its place in the list), whatever the signer's role.
    const slot = index + 1;
    const key = `signer_${slot}`;
    const values: Record<string, string> = {
      [`${key}_role`]: signerLabel(signer.role),
      [`${key}_name`]: signer.name,
      [`${key}_email`]: signer.email,
      [`${key}_viewed`]: certificateTime(signer.viewedAt),
      [`${key}_consented`]: certificateTime(signer.consentedAt),
      [`${key}_signed`]: certificateTime(signer.signedAt),
      [`${key}_ip`]: signer.ip ?? NONE,
      [`${key}_user_agent`]: signer.userAgent ?? NONE,
    };
    Object.assign(data, values);
    placeholders.push(...Object.keys(values).map(text));
    // One row per signer: a table row moves whole to the next page when it fits there, so a
    // signer's details and signature are never split apart.
    const details = [
      `**{{${key}_role}}**`,
      `{{${key}_name}}`,
      `{{${key}_email}}`,
      `**Viewed:** {{${key}_viewed}}`,
      `**Consented:** {{${key}_consented}}`,
      `**Signed:** {{${key}_signed}}`,
      `**IP address:** {{${key}_ip}}`,
      `**User agent:** {{${key}_user_agent}}`,
    ].join('\n');
    placeholders.push({ name: `${key}_signature`, type: 'signature', required: false, options: [], signer: slot });
    signing.signers[slot] = { name: signer.name, signedAt: signer.signedAt, signature: signer.signature };
    signerRows.push([details, `{{${key}_signature}}`]);
  }
  elements.push({ id: 'signers', type: 'table', headerRow: true, columnWidths: [1.3, 1], rows: signerRows });

  elements.push({ id: 'events-heading', type: 'heading', content: 'Events', fontSize: 'text-xl', level: 2 });
  const columns = ['time', 'event', 'who', 'ip'].map((name) => ({ name, type: 'text' as const, required: false, options: [] }));
  const eventRows: TListRow[] = input.events.map((event) => ({
    time: certificateTime(event.at),
    event: signatureEventText(event.type),
    who: event.who ?? NONE,
    ip: event.ip ?? NONE,
  }));
  // A list holds at most MAX_LIST_ROWS rows: a longer trail continues in further tables, headed alike.
  for (let start = 0, part = 1; start < Math.max(eventRows.length, 1); start += MAX_LIST_ROWS, part++) {
    const list = `events_${part}`;
    data[list] = eventRows.slice(start, start + MAX_LIST_ROWS);
    placeholders.push({ name: list, type: 'list', required: false, options: [], columns });
    elements.push({
      id: `events-${part}`,
      type: 'table',
      headerRow: true,
      columnWidths: [2.2, 1.6, 2.6, 2],
      rows: [
        ['Time', 'Event', 'By', 'IP address'],
        ['{{time}}', '{{event}}', '{{who}}', '{{ip}}'],
      ],
      repeat: { row: 1, list },
    });
  }

  elements.push(
    { id: 'trail-heading', type: 'heading', content: 'Audit trail and seal', fontSize: 'text-xl', level: 2 },
    {
      id: 'trail',
      type: 'paragraph',
      content: 'The audit trail holds {{event_count}} events, each chained to the one before it by a SHA-256 hash. The newest hash is:',
    },
    { id: 'trail-head', type: 'paragraph', content: '{{audit_head}}' },
    {
      id: 'seal',
      type: 'paragraph',
      content:
        'This PDF carries a digital seal over the whole file, made by the Formwork installation that sent it once every signer had signed. ' +
        'The seal can be checked at {{verify_url}}; a change made to the file after sealing makes the check fail.',
    },
  );

  const format = ZRenderableFormat.parse({
    content: {
      elements,
      style: { fontFamily: 'Arial', fontSize: 12, color: '#111827' },
      page: { size: 'A4' },
      footer: { text: 'Certificate of completion · {{request_id}} · Page {{page}} of {{pages}}', align: 'center', style: { fontSize: 12, color: '#6b7280' } },
      locale: 'en-US',
      tagFormats: true,
      // Tagged, so that a tagged document sealed with it stays tagged to its last page.
      accessible: true,
    },
    placeholders,
  });
  return {
    format,
    data,
    assets: {},
    signing,
    meta: { title: `Certificate of completion – ${input.documentName}`.slice(0, 500), creationDate: input.completedAt, locale: 'en-US' },
  };
}
