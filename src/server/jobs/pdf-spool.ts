/**
 * PDFs a bulk job rendered, kept on local disk so the batch's ZIP sends those bytes instead of
 * rendering every document a second time. A cache, never the record: a document the spool does
 * not have (made by a worker on another machine, swept, or the disk was wiped) is re-rendered
 * from its snapshot, which gives the same bytes.
 *
 * The render thread writes one pack per chunk: the chunk's PDFs back to back, and beside it an
 * index of document id -> [offset, length], written last, so an index always describes a whole
 * pack. One file per document cost more in open() calls than the rendering itself.
 */
import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { removeOlderThan } from './sweep-dir.ts';

export type TSpoolIndex = Record<string, [offset: number, length: number]>;

export type TSpoolReader = {
  /** The PDFs of these documents, in the same order; undefined where the spool has none. */
  getMany(documentIds: readonly string[]): Promise<(Buffer | undefined)[]>;
  close(): Promise<void>;
};

export type TPdfSpool = {
  /** Creates the job's folder; returns the pack path (without extension) for a chunk's PDFs. */
  prepare(jobId: string, packId: string): Promise<string>;
  /** Reads the job's packs (one open file at a time, in the order documents are asked for). */
  reader(jobId: string): Promise<TSpoolReader>;
  drop(jobId: string): Promise<void>;
  /** Removes spools not touched for maxAgeMs. */
  sweep(maxAgeMs: number): Promise<number>;
};

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

export type TSpoolPackWriter = { add(documentId: string, pdf: Uint8Array): void; finish(): void; abandon(): void };

/**
 * Writes a chunk's pack as its PDFs come (so a render thread never holds a chunk's PDFs at once),
 * then its index; each is written under a temporary name and renamed whole. For the render thread.
 */
export function openSpoolPack(packPath: string): TSpoolPackWriter {
  const temporary = `${packPath}.pdfs.tmp`;
  const fd = openSync(temporary, 'w');
  let closed = false;
  const close = () => {
    if (!closed) closeSync(fd);
    closed = true;
  };
  const index: TSpoolIndex = {};
  let offset = 0;
  return {
    add(documentId, pdf) {
      for (let written = 0; written < pdf.byteLength;) written += writeSync(fd, pdf, written);
      index[documentId] = [offset, pdf.byteLength];
      offset += pdf.byteLength;
    },
    finish() {
      close();
      renameSync(temporary, `${packPath}.pdfs`);
      writeFileSync(`${packPath}.json.tmp`, JSON.stringify(index));
      renameSync(`${packPath}.json.tmp`, `${packPath}.json`);
    },
    abandon() {
      try {
        close();
        rmSync(temporary, { force: true });
      } catch {
        // Nothing more to do for a cache.
      }
    },
  };
}

export function createPdfSpool(dir: string): TPdfSpool {
  const jobDir = (jobId: string) => {
    if (!SAFE_ID.test(jobId)) throw new Error(`unexpected job id ${JSON.stringify(jobId)}`);
    return path.join(dir, jobId);
  };
  return {
    async prepare(jobId, packId) {
      if (!SAFE_ID.test(packId)) throw new Error(`unexpected pack id ${JSON.stringify(packId)}`);
      await mkdir(jobDir(jobId), { recursive: true });
      return path.join(jobDir(jobId), packId);
    },
    async reader(jobId) {
      const where = new Map<string, { pack: string; offset: number; length: number }>();
      let names: string[] = [];
      try {
        names = await readdir(jobDir(jobId));
      } catch {
        // No spool for this job: every document is re-rendered.
      }
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        try {
          const index = JSON.parse(await readFile(path.join(jobDir(jobId), name), 'utf8')) as TSpoolIndex;
          const pack = path.join(jobDir(jobId), `${name.slice(0, -'.json'.length)}.pdfs`);
          for (const [id, [offset, length]] of Object.entries(index)) where.set(id, { pack, offset, length });
        } catch {
          // A damaged index only costs re-renders.
        }
      }
      let current: { pack: string; handle: FileHandle } | undefined;
      // close() may come while a getMany waits on the disk (its client left): from then on nothing
      // opens, and a handle that was opening is closed as it arrives.
      let closed = false;
      return {
        async getMany(documentIds) {
          const found: (Buffer | undefined)[] = documentIds.map(() => undefined);
          // Documents asked for in the order they were rendered lie back to back in one pack:
          // each such run is one read instead of one per document.
          for (let first = 0; first < documentIds.length;) {
            const start = where.get(documentIds[first]!);
            if (!start) {
              first++;
              continue;
            }
            let end = start.offset + start.length;
            let next = first + 1;
            for (; next < documentIds.length; next++) {
              const at = where.get(documentIds[next]!);
              if (!at || at.pack !== start.pack || at.offset !== end) break;
              end += at.length;
            }
            if (closed) break;
            try {
              if (current?.pack !== start.pack) {
                const previous = current;
                current = undefined;
                await previous?.handle.close();
                const handle = await open(start.pack, 'r');
                if (closed) {
                  await handle.close();
                  break;
                }
                current = { pack: start.pack, handle };
              }
              const span = Buffer.allocUnsafe(end - start.offset);
              const { bytesRead } = await current.handle.read(span, 0, span.length, start.offset);
              for (let k = first; k < next; k++) {
                const at = where.get(documentIds[k]!)!;
                const from = at.offset - start.offset;
                if (from + at.length <= bytesRead) found[k] = span.subarray(from, from + at.length);
              }
            } catch {
              // An unreadable pack only costs re-renders.
            }
            first = next;
          }
          return found;
        },
        async close() {
          closed = true;
          const last = current;
          current = undefined;
          await last?.handle.close();
        },
      };
    },
    async drop(jobId) {
      await rm(jobDir(jobId), { recursive: true, force: true });
    },
    sweep: (maxAgeMs) => removeOlderThan(dir, maxAgeMs),
  };
}
