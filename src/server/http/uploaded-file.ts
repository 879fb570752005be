import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { AppError } from './app-error.ts';

/**
 * The one file of a multipart upload, whole, or a clear 4xx: not multipart, no file, or larger
 * than `maxBytes` (multipart stops reading at the limit, so an oversized upload never fills memory).
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: { maxBytes: number; tooLargeMessage: string; /** What to choose, shown beside the field. */ missingHint: string },
): Promise<{ fileName: string; bytes: Buffer; /** Text fields sent before the file. */ fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('bad_request', 'Send the file as a multipart upload.');
  const file = await request.file({ limits: { fileSize: options.maxBytes, files: 1, fields: 5, fieldSize: 1024 } });
  if (!file) throw new AppError('bad_request', 'No file was attached.', { file: options.missingHint });
  const tooLarge = () => new AppError('payload_too_large', options.tooLargeMessage, { file: options.tooLargeMessage });
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (file.file.truncated) throw tooLarge();
  const fields: Record<string, string> = {};
  for (const [name, field] of Object.entries(file.fields)) {
    const first = Array.isArray(field) ? field[0] : field;
    if (first && first.type === 'field' && typeof first.value === 'string') fields[name] = first.value;
  }
  return { fileName: file.filename, bytes, fields };
}
