/**
 * What a file's bytes are, never what its name or the browser says: the one place uploads of
 * images, spreadsheets and documents are told apart.
 */

export type TFileKind = 'zip' | 'ole' | 'pdf' | 'png' | 'jpeg' | 'gif' | 'webp' | 'html' | 'text' | 'binary';

const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((b, i) => bytes[i] === b);
const latin1 = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const hasUtf16Bom = (bytes: Uint8Array) => startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);

export function sniffFile(bytes: Uint8Array): TFileKind {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5 || bytes[2] === 7)) return 'zip';
  if (startsWith(bytes, OLE_MAGIC)) return 'ole';
  // PDF readers accept the header anywhere in the first 1 KB.
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
  if (bytes.length >= 8 && startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(latin1(bytes, 0, 6))) return 'gif';
  if (bytes.length >= 12 && latin1(bytes, 0, 4) === 'RIFF' && latin1(bytes, 8, 12) === 'WEBP') return 'webp';
  const sample = bytes.subarray(0, 8192);
  if (!hasUtf16Bom(bytes) && sample.includes(0)) return 'binary';
  if (/^\s*<(!doctype html|html|\?xml)/i.test(latin1(sample, 0, 512).replace(/^\uFEFF|^\xEF\xBB\xBF/, ''))) return 'html';
  return 'text';
}

/**
 * Whether the text reads as prose rather than binary that happens to have no NUL: at most 1% of
 * its first 64 KB are control characters other than tab, line feed, form feed and carriage return.
 */
export function readsAsText(bytes: Uint8Array): boolean {
  if (hasUtf16Bom(bytes)) return true;
  const sample = bytes.subarray(0, 64 * 1024);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control <= sample.length / 100;
}

/** Whether a compound (OLE) file has a stream of this name: Office's wrapper around an encrypted document. */
export const oleHasStream = (bytes: Uint8Array, name: string) => Buffer.from(bytes).includes(Buffer.from(name, 'utf16le'));

/** Whether a ZIP names this part in its headers, where part names are stored as plain text. */
export const zipMentions = (bytes: Uint8Array, partName: string) => Buffer.from(bytes).includes(partName);
