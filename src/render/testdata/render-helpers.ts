import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZRenderableFormat, type TFormatContentInput } from '../../contract/format-content.ts';
import type { TPlaceholderInput } from '../../contract/placeholders.ts';
import { renderPdf } from '../index.ts';
import { assertValidPdf } from './pdf-tools.ts';

/** What the render-pdf test files share: a fixed creation date, a sample JPEG, and a checked render. */

export const DATE = new Date('2025-02-03T04:05:06Z');
export const JPEG = new Uint8Array(readFileSync(join(import.meta.dirname, 'sample.jpg')));

export function render(
  content: TFormatContentInput,
  opts: { data?: Record<string, string>; placeholders?: TPlaceholderInput[]; assets?: Record<string, Uint8Array>; locale?: string } = {},
) {
  const format = ZRenderableFormat.parse({ content, placeholders: opts.placeholders ?? [] });
  const out = renderPdf({
    format,
    data: opts.data ?? {},
    assets: opts.assets ?? {},
    meta: { title: 'Test document', creationDate: DATE, ...(opts.locale ? { locale: opts.locale } : {}) },
  });
  assertValidPdf(out.pdf);
  return out;
}

/** Collapses whitespace so assertions do not depend on where lines wrap. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
