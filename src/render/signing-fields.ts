import {
  findPlaceholderTags,
  formatDateValue,
  isSigningPlaceholder,
  type TPlaceholder,
  type TPlaceholderTag,
  type TSigningPlaceholderType,
} from '../contract/placeholders.ts';
import { signingBoxLabel, type TSignatureMark, type TSignerStamp } from '../contract/signing.ts';

/*
 * Signing tags (docs/e-signing.md): what `{{signature}}`, `{{initials}}`, `{{signed_date}}` and
 * `{{signer_name}}` print. A tag that is all of a paragraph or a table cell is a box (layout.ts
 * draws it); inside running text it is text, since a box cannot sit in a line.
 */

/** A signing tag as a box: what it is for, and once signed what fills it. */
export interface TSigningBox {
  kind: TSigningPlaceholderType;
  /** "Signature · Signer 1". */
  label: string;
  /** Once signed: the signer's name, the day signed (as the locale writes it), and the mark. */
  signed?: { name: string; date: string; mark?: TSignatureMark };
}

/** The signing input as the renderer trusts it: only well-formed stamps, by role. */
export function readSigners(raw: unknown): Map<number, TSignerStamp> {
  const signers = new Map<number, TSignerStamp>();
  const all = isRecord(raw) && isRecord(raw.signers) ? raw.signers : {};
  for (const [key, stamp] of Object.entries(all)) {
    const role = Number(key);
    if (!Number.isInteger(role) || role < 1 || !isRecord(stamp)) continue;
    if (typeof stamp.name !== 'string' || !(stamp.signedAt instanceof Date) || Number.isNaN(stamp.signedAt.getTime())) continue;
    const signature = readMark(stamp.signature);
    if (!signature) continue;
    const initials = readMark(stamp.initials);
    signers.set(role, { name: stamp.name.slice(0, 200), signedAt: stamp.signedAt, signature, ...(initials ? { initials } : {}) });
  }
  return signers;
}

function readMark(raw: unknown): TSignatureMark | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.type === 'typed' && typeof raw.text === 'string') return { type: 'typed', text: raw.text.slice(0, 200) };
  if (raw.type === 'image' && raw.png instanceof Uint8Array) return { type: 'image', png: raw.png };
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The initials of a name, typed: "Jane Q. Doe" -> "JQD". */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => String.fromCodePoint(word.codePointAt(0)!).toUpperCase())
    .join('');
}

export class SigningFields {
  private readonly byName = new Map<string, { type: TSigningPlaceholderType; signer: number }>();

  constructor(
    placeholders: readonly TPlaceholder[],
    private readonly signers: Map<number, TSignerStamp>,
    private readonly locale: string,
  ) {
    for (const p of placeholders) if (isSigningPlaceholder(p)) this.byName.set(p.name, { type: p.type, signer: p.signer ?? 1 });
  }

  get any(): boolean {
    return this.byName.size > 0;
  }

  /** The signing placeholder a tag names, if it names one. */
  private placeholder(tag: TPlaceholderTag) {
    return this.byName.get(tag.name);
  }

  names(tag: TPlaceholderTag): boolean {
    return this.byName.has(tag.name);
  }

  /** A signing tag inside running text: "[Signature · Signer 1]", or once signed what it stands for. */
  inline(tag: TPlaceholderTag): string | undefined {
    const box = this.boxOf(tag);
    if (!box) return undefined;
    if (!box.signed) return `[${box.label}]`;
    const { name, date, mark } = box.signed;
    switch (box.kind) {
      case 'signature':
        // The conventional mark of an electronic signature in text.
        return `/s/ ${name}`;
      case 'initials':
        return mark?.type === 'typed' ? mark.text : initialsOf(name);
      case 'signed_date':
        return date;
      case 'signer_name':
        return name;
    }
  }

  /** The box a text prints as, when the text is one signing tag and nothing else. */
  block(template: string): TSigningBox | undefined {
    if (this.byName.size === 0 || !template.includes('{{')) return undefined;
    const trimmed = template.trim();
    const tags = findPlaceholderTags(trimmed);
    if (tags.length !== 1 || tags[0]!.start !== 0 || tags[0]!.end !== trimmed.length) return undefined;
    return this.boxOf(tags[0]!);
  }

  private boxOf(tag: TPlaceholderTag): TSigningBox | undefined {
    const p = this.placeholder(tag);
    if (!p) return undefined;
    const label = signingBoxLabel(p.type, p.signer);
    const stamp = this.signers.get(p.signer);
    if (!stamp) return { kind: p.type, label };
    // The day signed in UTC, as the audit trail records it, written the document's way.
    const date = formatDateValue(stamp.signedAt.toISOString().slice(0, 10), this.locale);
    const mark =
      p.type === 'signature' ? stamp.signature : p.type === 'initials' ? (stamp.initials ?? { type: 'typed', text: initialsOf(stamp.name) }) : undefined;
    return { kind: p.type, label, signed: { name: stamp.name, date, ...(mark ? { mark } : {}) } };
  }
}
