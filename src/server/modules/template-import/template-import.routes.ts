import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import { ZTemplateImportResponse } from '../../../contract/template-import.ts';
import { IMPORT_FILE_FIELD, MAX_IMPORT_BYTES } from '../../../contract/template-import-files.ts';
import { readUploadedFile } from '../../http/uploaded-file.ts';
import type { TAssetsService } from '../assets/index.ts';
import { createImportPool, type TImportLimits } from './import-pool.ts';
import { createTemplateImportService, IMPORT_TOO_LARGE_MESSAGE } from './template-import.service.ts';

/** POST /api/formats/import. Images found in documents are stored through the assets service. */
export async function templateImportRoutes(app: FastifyInstance, opts: { assets: TAssetsService; limits?: TImportLimits }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const pool = createImportPool(opts.limits);
  app.addHook('onClose', async () => pool.close());
  const templateImport = createTemplateImportService({ assets: opts.assets, pool, log: app.log });

  api.post(
    '/api/formats/import',
    {
      schema: {
        description: `Converts one .docx, .pdf or .txt file (multipart field "${IMPORT_FILE_FIELD}", at most 10 MB) into an unsaved format draft. Nothing is saved.`,
        response: {
          200: ZTemplateImportResponse,
          400: ZApiError,
          401: ZApiError,
          403: ZApiError,
          413: ZApiError,
          415: ZApiError,
          422: ZApiError,
          429: ZApiError,
        },
      },
    },
    async (request) => {
      const ownerId = request.callerId;
      const file = await readUploadedFile(request, {
        maxBytes: MAX_IMPORT_BYTES,
        tooLargeMessage: IMPORT_TOO_LARGE_MESSAGE,
        missingHint: 'Choose a .docx, .pdf or .txt file.',
      });
      return templateImport.importFile(ownerId, file);
    },
  );
}
