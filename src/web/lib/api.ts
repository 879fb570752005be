/**
 * The one way the SPA talks to the server (SPEC.md section 7 and 8).
 * Every request sends cookies; a JSON body (and its content type) only when a body is given;
 * any non-2xx response throws `Error("{status}: {body text or status text}")`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  await throwIfResNotOk(res);
  return res;
}

/** Like apiRequest, then parses the JSON body (or returns undefined for an empty body). */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The HTTP status at the start of an error raised by apiRequest, or null. */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const m = /^(\d{3}):/.exec(error.message);
  return m?.[1] ? Number(m[1]) : null;
}

/** SPEC.md section 8: a 401 is an error whose text starts with "401:" and contains "Unauthorized". */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/is.test(error.message);
}

export interface ReadableApiError {
  status: number | null;
  code: string | null;
  message: string;
  fields: Record<string, string>;
}

/**
 * Turns an apiRequest error into something to show a person: the server's
 * `{"error":{"code","message","fields"}}` message and field errors when present.
 */
export function readApiError(error: unknown, fallback = 'Something went wrong. Please try again.'): ReadableApiError {
  if (!(error instanceof Error)) return { status: null, code: null, message: fallback, fields: {} };
  const status = errorStatus(error);
  const body = status === null ? error.message : error.message.replace(/^\d{3}:\s*/, '');
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const e = (parsed as { error: unknown }).error;
      if (e && typeof e === 'object') {
        const { code, message, fields } = e as { code?: unknown; message?: unknown; fields?: unknown };
        const cleanFields: Record<string, string> = {};
        if (fields && typeof fields === 'object') {
          for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
            if (typeof v === 'string') cleanFields[k] = v;
          }
        }
        return {
          status,
          code: typeof code === 'string' ? code : null,
          message: typeof message === 'string' && message ? message : fallback,
          fields: cleanFields,
        };
      }
    }
  } catch {
    // not JSON: fall through
  }
  if (status === null) {
    // fetch itself failed (offline, server down)
    return { status, code: null, message: 'Could not reach the server. Check your connection and try again.', fields: {} };
  }
  const plain = body.trim();
  const looksLikeMarkup = plain.startsWith('<');
  return {
    status,
    code: null,
    message: plain && !looksLikeMarkup && plain.length < 300 ? plain : fallback,
    fields: {},
  };
}
