import type { FastifyInstance } from 'fastify';
import '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZApiError } from '../../../contract/errors.ts';
import { IMPORT_FILE_FIELD, MAX_IMPORT_BYTES, ZTemplateImportResponse } from '../../../contract/template-import.ts';
import { AppError } from '../../http/app-error.ts';
import type { TAssetsService } from '../assets/assets.service.ts';
import type { TAuthService } from '../auth/auth.service.ts';
import { createTemplateImportService, IMPORT_TOO_LARGE_MESSAGE } from './template-import.service.ts';

const tooLarge = () => new AppError(413, 'payload_too_large', IMPORT_TOO_LARGE_MESSAGE, { file: IMPORT_TOO_LARGE_MESSAGE });

/** POST /api/formats/import. Images found in documents are stored through the assets service. */
export async function templateImportRoutes(app: FastifyInstance, opts: { auth: TAuthService; assets: TAssetsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const templateImport = createTemplateImportService({ assets: opts.assets, log: app.log });

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
      const ownerId = await opts.auth.currentUserId(request.headers);
      if (!request.isMultipart()) throw new AppError(400, 'bad_request', 'Send the file as a multipart upload.');
      const file = await request.file({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, fieldSize: 1024 } });
      if (!file) throw new AppError(400, 'bad_request', 'No file was attached.', { file: 'Choose a .docx, .pdf or .txt file.' });
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw error;
      }
      if (file.file.truncated) throw tooLarge();
      return templateImport.importFile(ownerId, { fileName: file.filename, bytes });
    },
  );
}
