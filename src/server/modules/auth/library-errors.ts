/** The HTTP status the auth library put on its error, if any. */
export function statusOf(error: unknown): number | undefined {
  const candidate = error as { statusCode?: unknown };
  return typeof candidate?.statusCode === 'number' ? candidate.statusCode : undefined;
}

/** The code the auth library put on its error, if any. */
export function codeOf(error: unknown): string | undefined {
  const candidate = error as { body?: { code?: unknown } };
  return typeof candidate?.body?.code === 'string' ? candidate.body.code : undefined;
}
