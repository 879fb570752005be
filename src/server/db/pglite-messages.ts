/** What the main thread and the embedded database's thread (pglite-thread.ts) say to each other. */
import type { ParserOptions, RowMode } from '@electric-sql/pglite';

export type TPgliteThreadOptions = {
  startParams: string[];
  dataDir?: string;
  loadDataDir?: Uint8Array<ArrayBuffer>;
  /** PostgreSQL's WebAssembly, compiled once per process (pglite-remote.ts). */
  wasmModule: WebAssembly.Module;
};

type TOn = { id: number; tx?: number };
export type TPgliteRequest = TOn &
  (
    | { op: 'query'; text: string; params?: unknown[]; rowMode?: RowMode; rawTypes?: number[] }
    | { op: 'exec'; text: string }
    | { op: 'begin' }
    | { op: 'end'; commit: boolean }
    | { op: 'dump'; compression: 'gzip' | 'none' }
    | { op: 'close' }
  );

export type TSerializedError = { message: string; name: string; stack?: string; fields: Record<string, unknown> };
export type TPgliteReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: TSerializedError };

/**
 * Parsers are functions, which cannot cross threads. The only ones given (drizzle's) keep a
 * type's text as it is, so what crosses is the list of those types; anything else is refused
 * rather than silently parsed another way.
 */
export function rawTypesOf(parsers: ParserOptions | undefined): number[] | undefined {
  if (!parsers) return undefined;
  return Object.entries(parsers).map(([type, parse]) => {
    const probe = '2001-02-03 04:05:06';
    if (parse(probe, Number(type)) !== probe)
      throw new Error(`only parsers that keep the text as it is can reach the embedded database's thread (type ${type})`);
    return Number(type);
  });
}

export const identityParsers = (types: number[]): ParserOptions => Object.fromEntries(types.map((type) => [type, (text: string) => text]));

/**
 * A database error keeps what callers read from it (its SQLSTATE `code`, `constraint`, `detail`…).
 * The query and its parameters stay behind: they may hold what must not reach a log.
 */
export function serializeError(error: unknown): TSerializedError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'query' || key === 'params' || key === 'queryOptions') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: error.message, name: error.name, ...(error.stack ? { stack: error.stack } : {}), fields };
}

export function deserializeError(serialized: TSerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
