import type { FastifyReply, FastifyRequest } from 'fastify';

/** The body's announced length: 0 for a request without one, undefined when it is sent in chunks. */
function bodyLength(request: FastifyRequest): number | undefined {
  const declared = request.headers['content-length'];
  if (declared !== undefined) return Number(declared);
  return request.headers['transfer-encoding'] ? undefined : 0;
}

/**
 * Route hooks that admit a request before its body is read (`admit` refuses by throwing) and
 * release what it took once the answer is sent or the client goes away, whichever comes first.
 * A refused request's connection is closed after the answer.
 */
export function admitBeforeBody(admit: (request: FastifyRequest, bodyBytes: number | undefined) => Promise<() => void>) {
  const releases = new WeakMap<FastifyRequest, () => void>();
  return {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      let release: () => void;
      try {
        release = await admit(request, bodyLength(request));
      } catch (refusal) {
        // The body is not wanted: closing the connection spares reading (and discarding) it,
        // which for a flood of large bodies would cost more than the refusal itself.
        reply.header('connection', 'close');
        throw refusal;
      }
      releases.set(request, release);
      reply.raw.once('close', release);
    },
    onResponse: async (request: FastifyRequest) => {
      releases.get(request)?.();
    },
  };
}

/**
 * Aborts when the client closes its connection before its answer is sent. Fastify's own
 * `request.signal` is no use for this: it also aborts once a request's body has been read.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
