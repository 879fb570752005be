import type { TImportKind } from '../../../contract/template-import-files.ts';
import { oleHasStream, readsAsText, sniffFile, type TFileKind } from '../../files/sniff.ts';
import { checkUnpackedSizes, type TZipRules } from '../../files/zip.ts';
import { AppError } from '../../http/app-error.ts';

/*
 * What the bytes are, never what the file name or the browser says. Each check answers a 4xx
 * with a message a person can act on.
 */

const DESCRIBE: Record<TFileKind, string> = {
  zip: 'a ZIP archive',
  ole: 'an older Microsoft Office file',
  pdf: 'a PDF',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  html: 'a web page or XML document',
  text: 'a plain text file',
  binary: 'a binary file',
};

const mismatch = (kind: TImportKind, actual: TFileKind) =>
  new AppError(
    'unsupported_media_type',
    `This file does not contain what its .${kind} extension says: it looks like ${DESCRIBE[actual]}. Choose a .docx, .pdf or .txt file.`,
    { file: 'The contents do not match the file type.' },
  );

export const badFile = (message: string) => new AppError('bad_request', message, { file: message });

/** An OLE container is either an encrypted Office document or a pre-2007 binary one. */
// Encrypted OOXML keeps the real package in a stream next to one named "EncryptionInfo".
const isEncryptedOle = (bytes: Uint8Array) => oleHasStream(bytes, 'EncryptionInfo');

/** Throws the right 4xx when the bytes are not a file of `kind`. */
export function checkFileKind(kind: TImportKind, bytes: Uint8Array): void {
  if (bytes.length === 0) throw badFile('The file is empty.');
  const sniffed = sniffFile(bytes);
  // A .txt must read as prose: binary without NUL bytes is still not a text file.
  const actual: TFileKind = sniffed === 'text' || sniffed === 'html' ? (readsAsText(bytes) ? 'text' : 'binary') : sniffed;
  if (kind === 'docx') {
    if (actual === 'ole') {
      if (isEncryptedOle(bytes)) {
        throw badFile('This Word document is password-protected. Remove the password in Word (File > Info > Protect Document), save it and import it again.');
      }
      throw new AppError('unsupported_media_type', 'This is an older Word (.doc) file, not a .docx. Open it in Word, save it as .docx and import it again.', {
        file: 'Save the document as .docx first.',
      });
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

const DOCX_ZIP_RULES: TZipRules = {
  maxEntries: 5_000,
  maxUnpackedBytes: MAX_UNPACKED_BYTES,
  maxRatio: 1100,
  messages: {
    corrupt: 'This Word document is damaged or incomplete and cannot be read.',
    tooManyParts: 'This file has too many parts to be a Word document.',
    passwordProtected: 'This Word document is password-protected. Remove the password in Word (File > Info > Protect Document), save it and import it again.',
    tooLarge: () => 'This file unpacks to far more data than a Word document holds, so it was refused.',
  },
};

/**
 * Unpacks the whole archive once, counting, so a zip bomb or a damaged archive is refused before
 * the converter unpacks it into memory. Answers the part names.
 */
export function inspectDocx(bytes: Buffer): Promise<string[]> {
  return checkUnpackedSizes(bytes, DOCX_ZIP_RULES);
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
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      warning: 'The text file is not UTF-8; it was read as Windows-1252 (Western European). Check accented letters.',
    };
  }
}
