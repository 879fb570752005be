import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';

/** A file name that is safe on every OS; the original survives in filename* for modern clients. */
function fileName(title: string): string {
  const cleaned = title
    .replace(/[\u0000-\u001f\u007f/\\?%*:|"<>]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return `${cleaned || 'document'}.pdf`;
}

export function sendPdf(reply: FastifyReply, bytes: Uint8Array, title: string, disposition: 'inline' | 'attachment') {
  return reply
    .type('application/pdf')
    .header('content-disposition', contentDisposition(fileName(title), { type: disposition }))
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
