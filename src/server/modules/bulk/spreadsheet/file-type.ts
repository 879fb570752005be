import { oleHasStream, sniffFile, zipMentions, type TFileKind } from '../../../files/sniff.ts';
import type { AppError } from '../../../http/app-error.ts';
import { ACCEPTED, unsupported } from './spreadsheet-limits.ts';

export type TContentKind = Exclude<TFileKind, 'ole' | 'webp'> | 'xlsx' | 'xls' | 'encrypted-ooxml';

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export function shortName(fileName: string): string {
  return fileName.length > 80 ? `${fileName.slice(0, 77)}...` : fileName;
}

/** What the bytes are, in a spreadsheet upload's terms. */
export function sniff(bytes: Buffer): TContentKind {
  const kind = sniffFile(bytes);
  // Part names are stored as plain text in the ZIP headers; the xlsx reader checks properly.
  if (kind === 'zip') return zipMentions(bytes, 'xl/workbook.xml') ? 'xlsx' : 'zip';
  // Office encrypts an .xlsx by wrapping it in a compound file with an EncryptedPackage stream.
  if (kind === 'ole') return oleHasStream(bytes, 'EncryptedPackage') ? 'encrypted-ooxml' : 'xls';
  return kind === 'webp' ? 'binary' : kind;
}

const KIND_NAMES: Record<TContentKind, string> = {
  xlsx: 'an Excel workbook (.xlsx)',
  zip: 'a ZIP archive',
  xls: 'an Excel 97-2003 workbook (.xls)',
  'encrypted-ooxml': 'a password-protected workbook',
  pdf: 'a PDF document',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  html: 'a web page or XML document',
  text: 'a text (CSV) file',
  binary: 'binary data, not text',
};

const KIND_EXTENSION: Partial<Record<TContentKind, string>> = { xlsx: 'xlsx', xls: 'xls', text: 'csv' };

export function mismatch(ext: string, kind: TContentKind): AppError {
  const real = KIND_EXTENSION[kind];
  const advice = real ? `Rename it to .${real} and upload it again.` : ACCEPTED;
  return unsupported(`This file is named .${ext}, but it is ${KIND_NAMES[kind]}. ${advice}`);
}
