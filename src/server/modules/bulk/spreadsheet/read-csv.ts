import Papa from 'papaparse';
import type { SheetBuilder } from './sheet-builder.ts';
import type { TReadStats } from './sheet-types.ts';
import { ACCEPTED, bad, fmt } from './spreadsheet-limits.ts';

const DELIMITERS = ['\t', ';', ','] as const;

function decodeText(bytes: Buffer): string {
  let encoding: 'utf-8' | 'utf-16le' | 'utf-16be' = 'utf-8';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ['utf-16le', 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ['utf-16be', 2];
  const body = bytes.subarray(start);
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    if (encoding !== 'utf-8') throw bad(`The file says it is ${encoding.toUpperCase()} text but is not valid. ${ACCEPTED}`);
    throw bad(
      `The file is not valid UTF-8 text (the first problem is on line ${firstInvalidUtf8Line(body)}). In Excel, save it as "CSV UTF-8 (Comma delimited)", or upload it as .xlsx.`,
    );
  }
}

/** 1-based line of the first invalid UTF-8 sequence (0x0A never occurs inside a valid sequence). */
function firstInvalidUtf8Line(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let from = 0;
  while (from <= bytes.length) {
    let to = bytes.indexOf(0x0a, from);
    if (to === -1) to = bytes.length;
    try {
      decoder.decode(bytes.subarray(from, to));
    } catch {
      return line;
    }
    line += 1;
    from = to + 1;
  }
  return line;
}

/**
 * The delimiter, among tab, semicolon and comma, that splits the first rows into the same number
 * of fields as the header, more than one; ties go to the rarer character (tab, then semicolon),
 * since a header like "Amount (EUR, net);Date" splits consistently on both.
 */
function detectDelimiter(text: string): string {
  let sample = text.slice(0, 64 * 1024);
  const lastNewline = sample.lastIndexOf('\n');
  if (text.length > sample.length && lastNewline > 0) sample = sample.slice(0, lastNewline);
  let best: { delimiter: string; fields: number; consistent: boolean } | null = null;
  for (const delimiter of DELIMITERS) {
    const rows = Papa.parse<string[]>(sample, { delimiter, preview: 20, skipEmptyLines: 'greedy' }).data;
    const header = rows[0];
    if (!header || header.length < 2) continue;
    const consistent = rows.every((r) => r.length === header.length);
    const better = !best || (consistent && !best.consistent) || (consistent === best.consistent && header.length > best.fields);
    if (better) best = { delimiter, fields: header.length, consistent };
  }
  return best?.delimiter ?? ',';
}

export function readCsv(bytes: Buffer, builder: SheetBuilder, stats: TReadStats): void {
  let text = decodeText(bytes);
  // Excel writes and honours a first line "sep=;" naming the delimiter; it is not a row.
  const sep = /^sep=([,;\t|])\r?\n/i.exec(text);
  if (sep) text = text.slice(sep[0].length);
  const delimiter = sep?.[1] ?? detectDelimiter(text);
  let failure: unknown = null;
  let row = 0;
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: false,
    step: (result, parser) => {
      row += 1;
      stats.rowsRead = row;
      try {
        const quoteError = result.errors.find((e) => e.type === 'Quotes');
        if (quoteError) {
          throw bad(
            `Row ${fmt(row)} has a quoted value that is not closed properly, so the rest of the file cannot be read. Check the quotation marks on that row.`,
          );
        }
        builder.push(row, result.data, false);
      } catch (error) {
        failure = error;
        parser.abort();
      }
    },
  });
  if (failure) throw failure;
}
