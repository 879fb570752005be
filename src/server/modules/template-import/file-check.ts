import { inflateRawSync } from 'node:zlib';
import type { TImportKind } from '../../../contract/template-import.ts';
import { AppError } from '../../http/app-error.ts';

/*
 * What the bytes are, never what the file name or the browser says. Each check answers a 4xx
 * with a message a person can act on.
 */

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

type TSniffed = 'zip' | 'ole' | 'pdf' | 'png' | 'jpeg' | 'gif' | 'text' | 'binary';

const startsWith = (bytes: Uint8Array, sig: readonly number[]) => sig.every((b, i) => bytes[i] === b);

function sniff(bytes: Uint8Array): TSniffed {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(bytes, OLE_MAGIC)) return 'ole';
  // PDF readers accept the header anywhere in the first 1 KB.
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  return looksLikeText(bytes) ? 'text' : 'binary';
}

function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  const sample = bytes.subarray(0, 64 * 1024);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return control <= sample.length / 100;
}

const DESCRIBE: Record<TSniffed, string> = {
  zip: 'a ZIP archive',
  ole: 'an older Microsoft Office file',
  pdf: 'a PDF',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  text: 'a plain text file',
  binary: 'a binary file',
};

const mismatch = (kind: TImportKind, actual: TSniffed) =>
  new AppError(
    'unsupported_media_type',
    `This file does not contain what its .${kind} extension says: it looks like ${DESCRIBE[actual]}. Choose a .docx, .pdf or .txt file.`,
    { file: 'The contents do not match the file type.' },
  );

export const badFile = (message: string) => new AppError('bad_request', message, { file: message });

/** An OLE container is either an encrypted Office document or a pre-2007 binary one. */
function isEncryptedOle(bytes: Uint8Array): boolean {
  // Encrypted OOXML keeps the real package in a stream next to one named "EncryptionInfo".
  return Buffer.from(bytes).includes(Buffer.from('EncryptionInfo', 'utf16le'));
}

/** Throws the right 4xx when the bytes are not a file of `kind`. */
export function checkFileKind(kind: TImportKind, bytes: Uint8Array): void {
  if (bytes.length === 0) throw badFile('The file is empty.');
  const actual = sniff(bytes);
  if (kind === 'docx') {
    if (actual === 'ole') {
      if (isEncryptedOle(bytes)) {
        throw badFile('This Word document is password-protected. Remove the password in Word (File > Info > Protect Document), save it and import it again.');
      }
      throw new AppError(
        'unsupported_media_type',
        'This is an older Word (.doc) file, not a .docx. Open it in Word, save it as .docx and import it again.',
        { file: 'Save the document as .docx first.' },
      );
    }
    if (actual !== 'zip') throw mismatch(kind, actual);
    return;
  }
  if (kind === 'pdf') {
    if (actual !== 'pdf') throw mismatch(kind, actual);
    return;
  }
  if (actual !== 'text') throw mismatch(kind, actual);
}

/** How much a .docx may unpack to: Word documents are a few MB unpacked; bombs are gigabytes. */
export const MAX_UNPACKED_BYTES = 150 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 5_000;

/**
 * Reads the ZIP's central directory and inflates every entry with a hard cap, so a zip bomb or
 * a damaged archive is refused before the converter unpacks it into memory. Returns the names.
 */
export function inspectZip(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const damaged = () => badFile('This Word document is damaged or incomplete and cannot be read.');
  // End of central directory: 22 bytes plus a comment of up to 64 KB, at the end of the file.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged();
  const count = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ZIP_ENTRIES) throw badFile('This file has too many parts to be a Word document.');
  if (cdOffset === 0xffffffff || cdOffset >= buf.length) throw damaged();
  const names: string[] = [];
  let budget = MAX_UNPACKED_BYTES;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw damaged();
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    names.push(name);
    p += 46 + nameLen + extraLen + commentLen;
    if (size > budget) throw badFile('This file unpacks to far more data than a Word document holds, so it was refused.');
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw damaged();
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw damaged();
    if (method === 8) {
      let out: Buffer;
      try {
        // The declared size may lie; the cap is what protects memory.
        out = inflateRawSync(buf.subarray(start, start + compressed), { maxOutputLength: Math.max(1, budget) });
      } catch (error) {
        if (error instanceof RangeError) {
          throw badFile('This file unpacks to far more data than a Word document holds, so it was refused.');
        }
        throw damaged();
      }
      budget -= out.length;
    } else if (method === 0) {
      budget -= compressed;
    } else {
      throw damaged();
    }
  }
  return names;
}

/** Checks that an archive is a Word document rather than another Office or ZIP file. */
export function checkDocxParts(names: readonly string[]): void {
  if (names.includes('word/document.xml') || names.some((n) => /^word\/document\d*\.xml$/.test(n))) return;
  const what = names.some((n) => n.startsWith('xl/'))
    ? 'an Excel workbook'
    : names.some((n) => n.startsWith('ppt/'))
      ? 'a PowerPoint presentation'
      : 'a ZIP archive';
  throw new AppError(
    'unsupported_media_type',
    `This file does not contain what its .docx extension says: it looks like ${what}. Choose a .docx, .pdf or .txt file.`,
    { file: 'The contents do not match the file type.' },
  );
}

/** Text as UTF-8 (or UTF-16 with a byte order mark); other bytes are read as Windows-1252. */
export function decodeText(bytes: Uint8Array): { text: string; warning?: string } {
  if (startsWith(bytes, [0xff, 0xfe])) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (startsWith(bytes, [0xfe, 0xff])) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      warning: 'The text file is not UTF-8; it was read as Windows-1252 (Western European). Check accented letters.',
    };
  }
}
