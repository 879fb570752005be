import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Route hooks that admit a request before its body is read (`admit` refuses by throwing) and
 * release what it took once the answer is sent or the client goes away, whichever comes first.
 * A refused request's connection is closed after the answer.
 */
export function admitBeforeBody(admit: (request: FastifyRequest) => Promise<() => void>) {
  const releases = new WeakMap<FastifyRequest, () => void>();
  return {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      let release: () => void;
      try {
        release = await admit(request);
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
