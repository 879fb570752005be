import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { storableText } from '../../contract/text.ts';
import { AppError } from './app-error.ts';

/*
 * The multipart parser (busboy) reports a body it cannot read with a bare Error, no code and no
 * status, so left alone it would answer 500. These are its messages for a client's broken body.
 */
const BROKEN_BODY: { pattern: RegExp; message: string }[] = [
  { pattern: /^Multipart: Boundary not found$/, message: 'The upload is not readable: its Content-Type "multipart/form-data" names no boundary.' },
  { pattern: /unexpected end of multipart data$/i, message: 'The upload ended before its last part was complete. Send the file again.' },
  // The boundary becomes the parser's search needle; RFC 2046 allows at most 70 characters.
  { pattern: /^The needle cannot/, message: 'The upload is not readable: its multipart boundary is too long (at most 70 characters).' },
];

/** A 400 for an error the multipart parser raised over a malformed body, or undefined for any other error. */
function brokenMultipartBody(error: unknown): AppError | undefined {
  if (!(error instanceof Error) || 'statusCode' in error) return undefined;
  const known = BROKEN_BODY.find(({ pattern }) => pattern.test(error.message));
  return known ? new AppError('bad_request', known.message) : undefined;
}

/** Runs a step that reads the request body, turning the parser's errors over a broken body into a 400. */
async function readingBody<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw brokenMultipartBody(error) ?? error;
  }
}

/**
 * The one file of a multipart upload, whole, or a clear 4xx: not multipart, a broken body, no file,
 * or larger than `maxBytes` (multipart stops reading at the limit, so an oversized upload never
 * fills memory). The file name can hold no NUL or unpaired surrogate, as nothing could store it.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  options: {
    maxBytes: number;
    tooLargeMessage: string;
    /** What to choose, shown beside the field. */
    missingHint: string;
    /** The form field the file is sent as, which a missing file's error names; `file` unless told. */
    field?: string;
  },
): Promise<{ fileName: string; bytes: Buffer; /** Text fields sent before the file. */ fields: Record<string, string> }> {
  if (!request.isMultipart()) throw new AppError('bad_request', 'Send the file as a multipart upload.');
  const field = options.field ?? 'file';
  const file = await readingBody(() => request.file({ limits: { fileSize: options.maxBytes, files: 1, fields: 5, fieldSize: 1024 } }));
  if (!file) throw new AppError('bad_request', 'No file was attached.', { [field]: options.missingHint });
  const tooLarge = () => new AppError('payload_too_large', options.tooLargeMessage, { [field]: options.tooLargeMessage });
  let bytes: Buffer;
  try {
    bytes = await readingBody(() => file.toBuffer());
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
  return { fileName: storableText(file.filename), bytes, fields };
}
