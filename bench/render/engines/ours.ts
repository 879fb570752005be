/**
 * Our renderer (`src/render`), given the reference formats through the contract's content model.
 * The format is parsed and the assets are built once, as the server would hold them; every
 * document gets different placeholder values. Nothing is warmed up beyond what `renderPdf`
 * does on its own (the first documents of a run are warm-up anyway; cold.ts measures the first).
 */
import { ZRenderableFormat, type TRenderableFormat } from '../../../src/contract/format-content.ts';
import { renderPdf } from '../../../src/render/index.ts';
import type { Kind } from '../fixture.ts';
import { IMAGE_SRC, REFERENCE_FORMATS, formatData, invoiceData } from '../formats.ts';
import { makeGradientPng } from '../png.ts';
import type { Engine } from './types.ts';

export const META_DATE = new Date('2024-01-01T00:00:00Z');

/** `tagged`: the formats as versions saved since tagging, so every document carries its structure. */
export async function createOursEngine({ tagged = false }: { tagged?: boolean } = {}): Promise<Engine> {
  const parse = (raw: unknown): TRenderableFormat => {
    const format = ZRenderableFormat.parse(raw);
    return tagged ? { ...format, content: { ...format.content, accessible: true } as TRenderableFormat['content'] } : format;
  };
  const formats: Record<Kind, TRenderableFormat> = {
    '1p': parse(REFERENCE_FORMATS['1p']),
    '5p': parse(REFERENCE_FORMATS['5p']),
    unicode: parse(REFERENCE_FORMATS.unicode),
    invoice: parse(REFERENCE_FORMATS.invoice),
  };
  const assets = { [IMAGE_SRC]: new Uint8Array(makeGradientPng()) };
  return {
    name: tagged ? 'tagged' : 'ours',
    async render(kind: Kind, i: number) {
      const data = kind === 'invoice' ? invoiceData(i) : formatData(i);
      const out = renderPdf({
        format: formats[kind],
        data,
        assets,
        meta: { title: `Reference ${kind} ${String(data.number ?? '')}`, creationDate: META_DATE },
      });
      return out.pdf;
    },
    close: async () => {},
  };
}
