/**
 * For the few failures the real server cannot be brought to give in a test (a 500 or 503 from an
 * endpoint that fails only when its database or host does): the window's fetch answers `status`
 * with the server's error shape for requests to this one path, and every other request still
 * reaches the real server. Returns the function that puts the real fetch back; call it in a
 * `finally`, so nothing after the test sees the stand-in.
 */
export function failRequestsTo(path: string, status: number, message: string): () => void {
  const realFetch = globalThis.fetch;
  const windowFetch = window.fetch;
  const standIn: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (url.pathname !== path) return realFetch(input, init);
    const body = JSON.stringify({ error: { code: 'internal', message } });
    return Promise.resolve(new Response(body, { status, headers: { 'Content-Type': 'application/json' } }));
  };
  globalThis.fetch = standIn;
  window.fetch = standIn;
  return () => {
    globalThis.fetch = realFetch;
    window.fetch = windowFetch;
  };
}
