/**
 * The embedded database on a thread of its own (see pglite-remote.ts, its other half). PGlite runs
 * the whole of PostgreSQL in WebAssembly on the thread that calls it: on the server's main thread
 * it took two thirds of that thread's time under load, and every request waited behind it. Here it
 * answers messages: queries, statement lists, transactions and a dump of its files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { identityParsers, serializeError, type TPgliteReply, type TPgliteRequest, type TPgliteThreadOptions } from './pglite-messages.ts';

const port = parentPort!;
const options = workerData as TPgliteThreadOptions;

/** PostgreSQL's type id for bytea. */
const BYTEA = 17;

const pglite = new PGlite({
  startParams: options.startParams,
  // PGlite's own bytea conversions go through one string per byte: an image of 4 MB took more
  // than this thread's heap may hold (pglite-remote.ts caps it), and a bigger one aborted the
  // process. Node's hex codec does the same in one buffer.
  serializers: {
    [BYTEA]: (value: unknown) => {
      const bytes = value as Uint8Array;
      return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA]: (text: string) => new Uint8Array(Buffer.from(text.slice(2), 'hex')) },
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  pgliteWasmModule: options.wasmModule,
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
});

/** Open transactions by number: the handle queries run on, and how the main thread ends it. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; finished: Promise<unknown> }>();
let lastTransaction = 0;

function beginTransaction(): Promise<number> {
  const number = ++lastTransaction;
  return new Promise((began, failed) => {
    let end: (commit: boolean) => void = () => {};
    const finished = pglite.transaction((tx) => {
      const decided = new Promise<void>((commit, rollBack) => {
        end = (commitIt) => (commitIt ? commit() : rollBack(new Error('rolled back')));
      });
      transactions.set(number, { tx, end, finished });
      began(number);
      return decided;
    });
    // Before the callback ran, a failure is the begin's; after, it is reported by the end.
    finished.catch(failed);
  });
}

async function endTransaction(number: number, commit: boolean): Promise<void> {
  const open = transactions.get(number);
  if (!open) throw new Error(`no open transaction ${number}`);
  transactions.delete(number);
  open.end(commit);
  try {
    await open.finished;
  } catch (error) {
    if (commit) throw error;
  }
}

async function answer(request: TPgliteRequest): Promise<unknown> {
  const on = request.tx === undefined ? pglite : transactions.get(request.tx)?.tx;
  if (!on) throw new Error(`no open transaction ${request.tx}`);
  switch (request.op) {
    case 'query': {
      const result = await on.query(request.text, request.params, {
        ...(request.rowMode ? { rowMode: request.rowMode } : {}),
        ...(request.rawTypes ? { parsers: identityParsers(request.rawTypes) } : {}),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await on.exec(request.text)).map((result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }));
    case 'begin':
      return beginTransaction();
    case 'end':
      return endTransaction(request.tx!, request.commit);
    case 'dump': {
      const dump = await pglite.dumpDataDir(request.compression);
      return new Uint8Array(await (dump as Blob).arrayBuffer());
    }
    case 'close':
      await pglite.close();
      return undefined;
  }
}

port.on('message', (request: TPgliteRequest) => {
  answer(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies TPgliteReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: serializeError(error) } satisfies TPgliteReply),
  );
});

pglite.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies TPgliteReply),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: serializeError(error) } satisfies TPgliteReply),
);
