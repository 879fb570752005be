import type { TErrorCode } from '../../contract/errors';
import { TEAM_HEADER } from '../../contract/team-roles';
import { currentTeamId } from './workspace';

/**
 * The one way the web app talks to the server. Every request sends cookies; a failure, whether the
 * server answered non-2xx or could not be reached, throws an `ApiError`. Nothing else calls `fetch`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';
/**
 * A 503 with Retry-After means the server turned the request away before doing anything (it is
 * busy making other documents), so sending it again is safe: after the wait it names, when that
 * wait is short, a few times.
 */
const BUSY_RETRIES = 3;
const BUSY_MAX_WAIT_SECONDS = 5;

function busyWaitMs(res: Response): number | null {
  // Only an answer that says when to come back: a bare 503 may come after work was done (an
  // invitation saved whose email then failed), and sending that again would repeat it.
  const header = res.headers.get('retry-after')?.trim() ?? '';
  if (res.status !== 503 || !/^\d+$/.test(header)) return null;
  const seconds = Number(header);
  return seconds <= BUSY_MAX_WAIT_SECONDS ? seconds * 1000 : null;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const LEFT_WORKSPACE_MESSAGE = 'You switched workspace before this finished. Open the other workspace again to see how it went.';

/**
 * A failed call. `message` is fit to show a person: the server's `error.message` when the body has
 * the error shape of `src/contract/errors.ts`, else a short plain-text body, else a generic line.
 * `status` is 0 when no answer came back (offline, server down, aborted).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: TErrorCode | null;
  readonly fields: Readonly<Record<string, string>>;
  /** The raw response body, or the status text when the body was empty. */
  readonly body: string;
  /** False when `message` is our generic line because the answer held nothing readable. */
  readonly readable: boolean;

  constructor(status: number, body: string, parsed?: { code: TErrorCode | null; message: string; fields: Record<string, string> }) {
    const plain = parsed ? null : ApiError.plainMessage(status, body);
    super(parsed?.message ?? plain ?? FALLBACK_MESSAGE);
    this.readable = parsed !== undefined || plain !== null;
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.code = parsed?.code ?? null;
    this.fields = parsed?.fields ?? {};
  }

  /** The error text users of the product know from elsewhere: "{status}: {body}". */
  get statusLine(): string {
    return `${this.status}: ${this.body}`;
  }

  /**
   * The error shape's schema loads with the first failed call, not with the app: the app starts
   * without the contract's schemas (and a failure is the rarer answer).
   */
  static async fromBody(status: number, body: string): Promise<ApiError> {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return new ApiError(status, body);
    }
    let shaped;
    try {
      shaped = (await import('../../contract/errors')).ZApiError.safeParse(json);
    } catch {
      return new ApiError(status, body);
    }
    if (!shaped.success) return new ApiError(status, body);
    const { code, message, fields } = shaped.data.error;
    return new ApiError(status, body, { code, message: message || FALLBACK_MESSAGE, fields: fields ?? {} });
  }

  /** A change made in a workspace the person has since left: its answer is not applied to the one they are in. */
  static leftWorkspace(): ApiError {
    return new ApiError(0, '', { code: null, message: LEFT_WORKSPACE_MESSAGE, fields: {} });
  }

  static unreachable(cause: unknown): ApiError {
    const error = new ApiError(0, '', { code: null, message: UNREACHABLE_MESSAGE, fields: {} });
    error.cause = cause;
    return error;
  }

  /** A short plain-text answer; null for markup (a proxy's error page) or JSON we do not know. */
  private static plainMessage(status: number, body: string): string | null {
    if (status === 0) return UNREACHABLE_MESSAGE;
    const plain = body.trim();
    return plain && !/^[<{[]/.test(plain) && plain.length < 300 ? plain : null;
  }
}

export interface RequestOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data; the browser sets the boundary. */
  form?: FormData;
  signal?: AbortSignal;
}

/**
 * Sends the request and returns the 2xx response; anything else throws an `ApiError`. Every call
 * names the current workspace (lib/workspace.ts) with the team header; the server ignores it on
 * account calls, and without it acts in the personal workspace.
 */
export async function request(method: HttpMethod, url: string, options: RequestOptions = {}): Promise<Response> {
  const teamId = currentTeamId();
  const headers: Record<string, string> = teamId ? { [TEAM_HEADER]: teamId } : {};
  const init: RequestInit = { method, credentials: 'include', signal: options.signal, headers };
  if (options.form) {
    init.body = options.form;
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.json);
  }
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(url, init);
    } catch (cause) {
      throw ApiError.unreachable(cause);
    }
    const wait = attempt < BUSY_RETRIES ? busyWaitMs(res) : null;
    if (wait === null) break;
    await res.body?.cancel();
    try {
      await pause(wait, options.signal);
    } catch (cause) {
      throw ApiError.unreachable(cause);
    }
  }
  // A query's answer lands in its own workspace's cache entry (query-client.ts); a change's answer
  // would be applied to whatever is on screen now, which is another workspace's.
  if (method !== 'GET' && currentTeamId() !== teamId) throw ApiError.leftWorkspace();
  if (!res.ok) throw await ApiError.fromBody(res.status, (await res.text().catch(() => '')) || res.statusText);
  return res;
}

/** Like `request`, then parses the JSON body (undefined for an empty body). */
export async function requestJson<T>(method: HttpMethod, url: string, options?: RequestOptions): Promise<T> {
  const res = await request(method, url, options);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The typed client the features use. */
export const api = {
  get: <T>(url: string, signal?: AbortSignal) => requestJson<T>('GET', url, { signal }),
  post: <T>(url: string, json?: unknown) => requestJson<T>('POST', url, { json }),
  put: <T>(url: string, json?: unknown) => requestJson<T>('PUT', url, { json }),
  patch: <T>(url: string, json?: unknown) => requestJson<T>('PATCH', url, { json }),
  delete: <T = void>(url: string) => requestJson<T>('DELETE', url),
  upload: <T>(url: string, form: FormData) => requestJson<T>('POST', url, { form }),
  /** A binary answer (a PDF preview), as a blob. */
  blob: async (method: HttpMethod, url: string, json?: unknown) => (await request(method, url, { json })).blob(),
};

/** The HTTP status of a failed call, or null when the error did not come from the server. */
export function errorStatus(error: unknown): number | null {
  return error instanceof ApiError && error.status > 0 ? error.status : null;
}

/** A signed-out session: the server answered 401. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export interface ReadableApiError {
  status: number | null;
  code: TErrorCode | null;
  message: string;
  fields: Readonly<Record<string, string>>;
}

/**
 * What to show a person for any error: an `ApiError`'s own message and field errors, or `fallback`
 * when the server said nothing readable (or the error did not come from a call at all).
 */
export function readApiError(error: unknown, fallback = FALLBACK_MESSAGE): ReadableApiError {
  if (!(error instanceof ApiError)) return { status: null, code: null, message: fallback, fields: {} };
  return { status: errorStatus(error), code: error.code, message: error.readable ? error.message : fallback, fields: error.fields };
}
