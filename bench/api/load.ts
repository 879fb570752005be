/**
 * The API benchmark's loads, tallied the way it judges them: answers by status, latency of the
 * answered (2xx) requests only, 503s that say when to come back (shed), and everything else.
 */
import http from 'node:http';
import autocannon from 'autocannon';

export type TLoad = {
  created: number;
  statuses: Record<string, number>;
  errorCodes: Record<string, number>;
  p50: number;
  p99: number;
  shed: number;
  shedWithoutRetryAfter: number;
  errors: number;
};

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * A closed loop of `connections` clients, each sending the request again as soon as it is
 * answered, as autocannon does, except that a client told 503 with Retry-After waits that long
 * first, as the API reference asks of every client: a benchmark that ignored it would measure a
 * retry storm, not a load. Tallied as `load` tallies.
 */
export async function politeLoad(
  options: { url: string; method: string; headers: Record<string, string>; body: string; connections: number; duration?: number; amount?: number },
  onHeaders?: (headers: Record<string, string>) => void,
): Promise<TLoad> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const statuses: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  const answered: number[] = [];
  let shedWithoutRetryAfter = 0;
  let shed = 0;
  let sent = 0;
  const deadline = options.duration ? performance.now() + options.duration * 1000 : Infinity;
  const more = () => performance.now() < deadline && (options.amount === undefined || sent < options.amount);
  const once = () =>
    new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
      const request = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method: options.method, headers: options.headers, agent },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string> }));
          // A connection reset mid-answer ends without 'end': counted as an error, not waited on for ever.
          response.on('aborted', () => reject(Object.assign(new Error('answer cut short'), { code: 'ECONNRESET' })));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(options.body);
    });
  const client = async () => {
    while (more()) {
      sent++;
      const started = performance.now();
      try {
        const { status, headers } = await once();
        statuses[status] = (statuses[status] ?? 0) + 1;
        onHeaders?.(headers);
        if (status >= 200 && status < 300) answered.push(performance.now() - started);
        if (status === 503) {
          const seconds = Number(headers['retry-after']);
          if (!headers['retry-after'] || !Number.isFinite(seconds)) shedWithoutRetryAfter++;
          else {
            shed++;
            await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          }
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  agent.destroy();
  const failed = Object.values(errorCodes).reduce((n, count) => n + count, 0);
  return tally({ statuses, errorCodes, answered, shed, shedWithoutRetryAfter, failed });
}

/** The figures of one load: 2xx latencies, 503s with Retry-After as shed, anything else an error. */
function tally(counts: {
  statuses: Record<string, number>;
  errorCodes: Record<string, number>;
  answered: number[];
  shed: number;
  shedWithoutRetryAfter: number;
  failed: number;
}): TLoad {
  const { statuses, errorCodes, answered, shed, shedWithoutRetryAfter, failed } = counts;
  answered.sort((a, b) => a - b);
  const unexpected = Object.entries(statuses).reduce((n, [status, count]) => n + (status.startsWith('2') || status === '503' ? 0 : count), 0);
  return {
    created: statuses['201'] ?? 0,
    statuses,
    errorCodes,
    p50: quantile(answered, 0.5),
    p99: quantile(answered, 0.99),
    shed,
    shedWithoutRetryAfter,
    errors: unexpected + shedWithoutRetryAfter + failed,
  };
}

/** One autocannon load, as fast as autocannon sends: for floods that are refused, not shed. */
export function load(
  options: Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'body' | 'connections' | 'duration' | 'amount'>,
  onHeaders?: (headers: Record<string, string>) => void,
): Promise<TLoad> {
  const statuses: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  const answered: number[] = [];
  let shedWithoutRetryAfter = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        ...options,
        requests: [
          {
            onResponse: (status, _body, _context, headers) => {
              const flat = headers as Record<string, string>;
              if (status === 503 && !flat['retry-after']) shedWithoutRetryAfter++;
              onHeaders?.(flat);
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const shed = (statuses['503'] ?? 0) - shedWithoutRetryAfter;
        resolve(tally({ statuses, errorCodes, answered, shed, shedWithoutRetryAfter, failed: result.errors + result.timeouts }));
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) answered.push(responseTime);
    });
    instance.on('reqError', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    });
  });
}
