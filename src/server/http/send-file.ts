import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import { wellFormed } from '../../contract/text.ts';

/** A file name that is safe on every OS; the original survives in filename* for modern clients. */
export function safeFileBaseName(title: string): string {
  const cleaned = wellFormed(title)
    .replace(/[\u0000-\u001f\u007f/\\?%*:|"<>]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return cleaned || 'document';
}

export function sendFile(reply: FastifyReply, body: Uint8Array | Readable, fileName: string, contentType: string, disposition: 'inline' | 'attachment') {
  const dot = fileName.lastIndexOf('.');
  const safe = `${safeFileBaseName(fileName.slice(0, dot))}${fileName.slice(dot)}`;
  return reply
    .type(contentType)
    .header('content-disposition', contentDisposition(safe, { type: disposition }))
    .header('cache-control', 'private, no-store')
    .send(body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body);
}

export function sendPdf(reply: FastifyReply, bytes: Uint8Array, title: string, disposition: 'inline' | 'attachment') {
  return sendFile(reply, bytes, `${title}.pdf`, 'application/pdf', disposition);
}
