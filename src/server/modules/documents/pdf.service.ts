import { createHash } from 'node:crypto';
import type { TRenderableFormat } from '../../../contract/format-content.ts';
import { renderPdf } from '../../../render/index.ts';
import type { TAssetsService } from '../assets/assets.service.ts';

export type TPdfRequest = {
  ownerId: string;
  format: TRenderableFormat;
  data: Record<string, string>;
  title: string;
  creationDate: Date;
};

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The one place the server turns a format and data into PDF bytes. */
export function createPdfService(deps: { assets: TAssetsService }) {
  return {
    async render(request: TPdfRequest): Promise<Uint8Array> {
      const { pdf } = renderPdf({
        format: request.format,
        data: request.data,
        assets: await deps.assets.forRender(request.ownerId, request.format.content),
        meta: { title: request.title, creationDate: request.creationDate, locale: request.format.content.locale },
      });
      return pdf;
    },
  };
}
export type TPdfService = ReturnType<typeof createPdfService>;
