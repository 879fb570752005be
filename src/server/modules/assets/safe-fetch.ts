import http from 'node:http';
import https from 'node:https';
import { ADDRESS_NOT_ALLOWED, filteringAgents, NOT_ALLOWED_MESSAGE } from '../../net/address-rule.ts';

export class ImageFetchError extends Error {}

/**
 * What a failed connection tells the user: never the resolved address or the error's own text,
 * which would let a user map names and hosts inside our network one refusal at a time.
 */
export function connectionFailureMessage(error: Error & { code?: string }, host = 'The image host'): string {
  if (error.code === ADDRESS_NOT_ALLOWED) return NOT_ALLOWED_MESSAGE;
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} could not be found.`;
    case 'ECONNREFUSED':
      return `${host} refused the connection.`;
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} could not be reached.`;
    default:
      if (error.code?.startsWith('ERR_TLS') || /certificate/i.test(error.message)) return `${host}'s certificate is not valid.`;
      return host === 'The image host' ? 'The image could not be fetched.' : `${host} could not be reached.`;
  }
}

export type TSafeFetchOptions = {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** IPs an operator explicitly trusts (an intranet image server); everything else private is refused. */
  allowIps: string[];
};

/**
 * Fetches a user-given URL from the server side without letting it reach our own network: the
 * agents check the address each connection really goes to (after DNS, so rebinding does not
 * help), and every redirect hop goes through them again.
 */
export function createSafeFetcher(options: TSafeFetchOptions) {
  const { http: httpAgent, https: httpsAgent } = filteringAgents(options.allowIps);

  function once(url: URL): Promise<{ status: number; location?: string; body?: Buffer }> {
    return new Promise((resolve, reject) => {
      const lib = url.protocol === 'https:' ? https : http;
      const request = lib.get(
        url,
        {
          agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
          timeout: options.timeoutMs,
          headers: { 'user-agent': 'Formwork image fetcher', accept: 'image/*' },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            response.resume();
            resolve({ status, location: response.headers.location });
            return;
          }
          if (status !== 200) {
            response.resume();
            reject(new ImageFetchError(`The image address answered ${status}.`));
            return;
          }
          const declared = Number(response.headers['content-length'] ?? 0);
          if (declared > options.maxBytes) {
            response.destroy();
            reject(new ImageFetchError('The image is larger than 10 MB.'));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > options.maxBytes) {
              response.destroy();
              reject(new ImageFetchError('The image is larger than 10 MB.'));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
          response.on('error', (error) => reject(new ImageFetchError(connectionFailureMessage(error))));
        },
      );
      const deadline = setTimeout(() => request.destroy(new ImageFetchError('The image took too long to download.')), options.timeoutMs);
      request.on('close', () => clearTimeout(deadline));
      request.on('timeout', () => request.destroy(new ImageFetchError('The image took too long to download.')));
      request.on('error', (error) => reject(error instanceof ImageFetchError ? error : new ImageFetchError(connectionFailureMessage(error))));
    });
  }

  return async function safeFetch(rawUrl: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new ImageFetchError('The image address is not a valid URL.');
    }
    for (let hop = 0; hop <= options.maxRedirects; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ImageFetchError('Only http and https image addresses are allowed.');
      }
      if (url.username || url.password) throw new ImageFetchError('Image addresses cannot carry credentials.');
      const result = await once(url);
      if (result.body) return result.body;
      url = new URL(result.location!, url);
    }
    throw new ImageFetchError('The image address redirected too many times.');
  };
}
export type TSafeFetch = ReturnType<typeof createSafeFetcher>;
