import { SaxesParser } from 'saxes';
import type yauzl from 'yauzl';
import { openEntry } from '../../../files/zip.ts';
import { AppError } from '../../../http/app-error.ts';
import { bad, MESSAGES } from './spreadsheet-limits.ts';

// The XML parts of an .xlsx, streamed through a SAX parser.

export type TSaxHandlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Streams one part through a SAX parser. A handler may throw to stop reading (the row limit);
 * the inflate stream is then destroyed, so nothing past that point is unpacked.
 */
export async function parsePart(zip: yauzl.ZipFile, entry: yauzl.Entry, handlers: TSaxHandlers, onBytes?: (n: number) => void): Promise<void> {
  const parser = new SaxesParser({ position: false });
  parser.on('doctype', () => {
    throw bad(MESSAGES.corrupt);
  });
  parser.on('error', () => {
    throw bad(MESSAGES.corrupt);
  });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes as Record<string, string>));
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  const decoder = new TextDecoder('utf-8');
  let stream: NodeJS.ReadableStream & AsyncIterable<Buffer>;
  try {
    stream = await openEntry(zip, entry);
  } catch {
    throw bad(MESSAGES.corrupt);
  }
  try {
    for await (const chunk of stream) {
      onBytes?.(chunk.length);
      parser.write(decoder.decode(chunk, { stream: true }));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : '';
    throw bad(/too many bytes/i.test(message) ? MESSAGES.sizeMismatch : MESSAGES.corrupt);
  } finally {
    const destroyable = stream as unknown as { destroy?: () => void };
    destroyable.destroy?.();
  }
}

export async function readPartText(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined, handlers: TSaxHandlers): Promise<void> {
  if (entry) await parsePart(zip, entry, handlers);
}

/** Decodes OOXML's `_xHHHH_` escapes (Excel writes a carriage return as `_x000D_`). */
export function unescapeOoxml(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

/** Collects `<t>` text inside `<si>`/`<is>`, leaving out phonetic runs (`<rPh>`). */
export class RichTextCollector {
  private depthT = 0;
  private inPhonetic = 0;
  private parts: string[] = [];

  open(name: string): void {
    if (name === 't') this.depthT += 1;
    else if (name === 'rPh') this.inPhonetic += 1;
  }
  close(name: string): void {
    if (name === 't') this.depthT -= 1;
    else if (name === 'rPh') this.inPhonetic -= 1;
  }
  text(text: string): void {
    if (this.depthT > 0 && this.inPhonetic === 0) this.parts.push(text);
  }
  take(): string {
    const out = unescapeOoxml(this.parts.join(''));
    this.parts = [];
    return out;
  }
}

export function resolveTarget(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/').toLowerCase();
}

const COLUMN_REF_RE = /^\$?([A-Za-z]{1,3})/;

export function columnIndexOf(ref: string | undefined): number | null {
  const m = ref ? COLUMN_REF_RE.exec(ref) : null;
  if (!m) return null;
  let n = 0;
  for (const ch of (m[1] ?? '').toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}
