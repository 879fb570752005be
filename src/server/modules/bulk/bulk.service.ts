import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TApiKeyMode } from '../../../contract/api-keys.ts';
import {
  batchDocumentName,
  BULK_PREVIEW_ROWS,
  columnPlaceholders,
  defaultFileNamePattern,
  type TBulkJob,
  type TBulkRowError,
  type TBulkUpload,
  type TColumnMapping,
  type TStartBulkJobBody,
} from '../../../contract/bulk.ts';
import { DEFAULT_CLIENT_NAME, clientNameOf, fillNamePattern, type TDocumentData } from '../../../contract/documents.ts';
import { textValues } from '../../../contract/filled-values.ts';
import type { TRenderableFormat } from '../../../contract/format-content.ts';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import type { z } from 'zod';
import type { ZStartBulkJobBody } from '../../../contract/bulk.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { safeFileBaseName } from '../../http/send-file.ts';
import { createZipWriter, ZIP_STALL_MS } from '../../files/zip-writer.ts';
import { chunksFor, type TBulkChunkPayload, type TBulkChunkSender } from '../../jobs/bulk-chunk.job.ts';
import type { TRenderPool } from '../../jobs/render-pool.ts';
import type { TPdfSpool } from '../../jobs/pdf-spool.ts';
import { MAX_MERGED_DOCUMENTS } from '../../../render/index.ts';
import { expansionChecker } from '../documents/pdf.service.ts';
import type { TAssetsService } from '../assets/assets.service.ts';
import type { TFormatRow, TFormatsRepository } from '../formats/formats.repository.ts';
import type { TUsersRepository } from '../users/users.repository.ts';
import type { TQuotaService } from '../quota/quota.service.ts';
import type { TBatchDocument, TBulkJobRow, TBulkRepository, TNewBulkRow } from './bulk.repository.ts';
import { autoMapColumns, validateSheet } from './column-mapping.ts';
import { attachLines, lineColumnIndexes } from './list-lines.ts';
import { readSpreadsheet, type TSheet, type TSheetRow } from './spreadsheet.ts';

const jobNotFound = () => notFound('Bulk job');
/** Extra invalid rows shown beyond the first rows, so a problem far down the file is visible too. */
const PREVIEW_EXTRA_INVALID = 30;
/** Documents read from the spool (or rendered again) at a time for the ZIP. */
const ZIP_RENDER_BATCH = 16;
/** Documents read from the database per query while writing a ZIP. */
const ZIP_PAGE = 1_000;
/** How long spooled PDFs are kept for the batch's ZIP. */
export const SPOOL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

function toJob(row: TBulkJobRow, now = Date.now()): TBulkJob {
  const settled = row.done + row.failed;
  const running = row.status === 'running' && row.startedAt;
  const seconds = running ? (now - row.startedAt!.getTime()) / 1000 : 0;
  const rate = running && seconds > 0 && settled > 0 ? settled / seconds : null;
  const left = row.total - settled;
  return {
    id: row.id,
    formatId: row.formatId,
    formatName: row.formatId ? row.formatName : 'Unknown',
    fileName: row.fileName,
    fileNamePattern: row.fileNamePattern,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    skipped: row.skipped,
    ratePerSecond: rate === null ? null : Math.round(rate * 10) / 10,
    etaSeconds: rate && left > 0 ? Math.ceil(left / rate) : null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    message: row.message,
  };
}

/**
 * Each row's cells in the columns that fill no placeholder, by column index: kept with the row
 * once the draft's sheet is dropped, so a mail merge can address documents to an email column
 * the document itself does not print.
 */
function unusedCells(job: Pick<TBulkJobRow, 'columns' | 'mapping' | 'sourceRows'>): Map<number, Record<string, string>> {
  const used = new Set(Object.values(job.mapping).filter((v): v is number => v !== null));
  const unused = job.columns.map((_, i) => i).filter((i) => !used.has(i));
  const cells = new Map<number, Record<string, string>>();
  if (unused.length === 0) return cells;
  for (const source of job.sourceRows ?? []) {
    const extra = Object.fromEntries(unused.flatMap((i) => (source.cells[i]?.trim() ? [[String(i), source.cells[i]!.trim()]] : [])));
    if (Object.keys(extra).length > 0) cells.set(source.row, extra);
  }
  return cells;
}

/** A JSON row's lists as a spreadsheet row's lines: each cell as text, as a lines sheet gives it. */
function linesOf(placeholders: readonly TPlaceholder[], data: TDocumentData): Pick<TSheetRow, 'lines'> {
  const lines: Record<string, Record<string, string>[]> = {};
  for (const p of placeholders) {
    const value = data[p.name];
    if (p.type !== 'list' || !Array.isArray(value)) continue;
    lines[p.name] = value.map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, cell === null || cell === undefined ? '' : String(cell)])),
    );
  }
  return Object.keys(lines).length > 0 ? { lines } : {};
}

/** A file name from the pattern: placeholders filled, characters file systems reject replaced. */
export function zipEntryName(pattern: string, values: Readonly<Record<string, unknown>>): string {
  const text = textValues(values);
  const filled = fillNamePattern(pattern, (name) => text[name]);
  // No leading dots (hidden files) and no trailing dots or spaces (Windows drops them).
  return safeFileBaseName(filled).replace(/^[\s.]+|[\s.]+$/g, '') || 'document';
}

/** Makes names unique within one archive, case-insensitively (Windows and macOS file systems). */
export function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = `${name}.pdf`;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name} (${n}).pdf`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function createBulkService(deps: {
  /** Told when a job ends (webhooks). */
  events?: { batchFinished(ownerId: string, job: TBulkJob): Promise<void> };
  bulk: TBulkRepository;
  formats: TFormatsRepository;
  users: TUsersRepository;
  quota: TQuotaService;
  assets: TAssetsService;
  pool: () => Promise<TRenderPool>;
  spool: TPdfSpool;
  chunks: () => Promise<TBulkChunkSender>;
  log: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  /** How long a ZIP download may go without the client reading before it is dropped. */
  zipStallMs?: number;
}) {
  const zipStallMs = deps.zipStallMs ?? ZIP_STALL_MS;
  const quota = (ownerId: string) => deps.quota.generations(ownerId);

  async function draftView(ownerId: string, job: TBulkJobRow, format: Pick<TFormatRow, 'placeholders' | 'content'>): Promise<TBulkUpload> {
    const placeholders = format.placeholders;
    const sheet: TSheet = { columns: job.columns, rows: job.sourceRows ?? [] };
    const mapping = job.mapping;
    const checked = validateSheet(sheet, placeholders, mapping, format.content);
    const first = checked.rows.slice(0, BULK_PREVIEW_ROWS);
    const extra = checked.rows
      .slice(BULK_PREVIEW_ROWS)
      .filter((r) => Object.keys(r.errors).length > 0)
      .slice(0, PREVIEW_EXTRA_INVALID);
    // Columns that fill a list's lines (or name the document) are used too.
    const used = new Set([...Object.values(mapping).filter((v): v is number => v !== null), ...lineColumnIndexes(job.columns, placeholders)]);
    const { remaining } = await quota(ownerId);
    return {
      id: job.id,
      formatId: job.formatId ?? '',
      fileName: job.fileName,
      columns: job.columns,
      mapping,
      unmappedPlaceholders: columnPlaceholders(placeholders).filter((p) => mapping[p.name] == null).map((p) => p.name),
      unusedColumns: job.columns.map((_, i) => i).filter((i) => !used.has(i)),
      totalRows: sheet.rows.length,
      validRows: checked.valid,
      invalidRows: checked.invalid,
      preview: [...first, ...extra],
      quota: { remaining, canMake: Math.min(remaining, checked.valid) },
      lists: placeholders
        .filter((p) => p.type === 'list')
        .map((p) => ({
          name: p.name,
          label: placeholderLabel(p),
          lines: sheet.rows.reduce((n, r) => n + (r.lines?.[p.name]?.length ?? 0), 0),
          documents: sheet.rows.filter((r) => (r.lines?.[p.name]?.length ?? 0) > 0).length,
        })),
    };
  }

  async function draftWithFormat(ownerId: string, id: string) {
    const job = await deps.bulk.get(ownerId, id);
    if (!job) throw jobNotFound();
    if (job.status !== 'draft') throw new AppError('conflict', 'This upload has already been started.');
    const format = job.formatId ? await deps.formats.get(ownerId, job.formatId) : undefined;
    if (!format) throw new AppError('not_found', 'The format of this upload was deleted. Upload the file again.');
    return { job, format };
  }

  /** Columns named after the format's placeholders, and the sheet's header, must describe the same fields. */
  function checkMapping(mapping: TColumnMapping, columns: string[], placeholders: TPlaceholder[]): TColumnMapping {
    const names = new Set(placeholders.map((p) => p.name));
    const clean: TColumnMapping = {};
    const taken = new Map<number, string>();
    for (const p of placeholders) {
      const column = mapping[p.name] ?? null;
      if (column !== null && (column < 0 || column >= columns.length)) {
        throw new AppError('validation_failed', `Column ${column + 1} does not exist in the file.`);
      }
      if (column !== null) {
        const other = taken.get(column);
        if (other) {
          throw new AppError(
            'validation_failed',
            `The column "${columns[column]}" is mapped to both ${other} and ${placeholderLabel(p)}. Map each column to one field.`,
          );
        }
        taken.set(column, placeholderLabel(p));
      }
      clean[p.name] = column;
    }
    for (const key of Object.keys(mapping)) {
      if (!names.has(key)) throw new AppError('validation_failed', `The format has no field named "${key}".`);
    }
    return clean;
  }

  /** Completes a job whose rows are all settled, and tells the owner's webhooks how it ended. */
  async function finishIfDone(ownerId: string, jobId: string): Promise<void> {
    if (!(await deps.bulk.finishIfDone(ownerId, jobId))) return;
    deps.log.info({ jobId }, 'bulk job completed');
    const row = await deps.bulk.get(ownerId, jobId);
    if (row) await deps.events?.batchFinished(ownerId, toJob(row));
  }

  // A job's chunks all render one snapshot with its images: loaded once per job, not per chunk.
  const renderInputCache = new Map<string, Promise<{ format: TRenderableFormat; assets: Record<string, Uint8Array> }>>();
  function renderInputs(ownerId: string, snapshotId: string) {
    const key = `${ownerId}:${snapshotId}`;
    let entry = renderInputCache.get(key);
    if (!entry) {
      entry = (async () => {
        const snapshot = await deps.bulk.snapshotOf(ownerId, snapshotId);
        if (!snapshot) throw new Error(`snapshot ${snapshotId} is missing`);
        return {
          format: { content: snapshot.content, placeholders: snapshot.placeholders },
          assets: await deps.assets.forRender(ownerId, snapshot.content),
        };
      })();
      entry.catch(() => renderInputCache.delete(key));
      renderInputCache.set(key, entry);
      // A few recent jobs are plenty; the oldest goes first.
      if (renderInputCache.size > 8) renderInputCache.delete(renderInputCache.keys().next().value as string);
    }
    return entry;
  }

  return {
    async upload(ownerId: string, formatId: string, file: { fileName: string; bytes: Buffer }): Promise<TBulkUpload> {
      const format = await deps.formats.get(ownerId, formatId);
      if (!format) throw new AppError('not_found', 'Format not found.');
      if (format.placeholders.length === 0) {
        throw new AppError('validation_failed', 'This format has no placeholders, so a spreadsheet has nothing to fill in.');
      }
      // A format with lists takes its lines from other sheets, or from rows that repeat a key.
      const read = await readSpreadsheet(file.bytes, file.fileName, { otherSheets: format.placeholders.some((p) => p.type === 'list') });
      const { sheet } = attachLines(read, format.placeholders);
      const job = await deps.bulk.createDraft({
        id: randomUUID(),
        ownerId,
        formatId: format.id,
        formatName: format.name,
        fileName: file.fileName.slice(0, 255),
        fileNamePattern: '',
        status: 'draft',
        columns: sheet.columns,
        mapping: autoMapColumns(sheet.columns, format.placeholders),
        sourceRows: sheet.rows,
        total: sheet.rows.length,
      });
      return draftView(ownerId, job, format);
    },

    /**
     * A batch from rows an API client sent as JSON: each row becomes a spreadsheet row whose
     * columns are the format's placeholders (row 1 is the first row sent), then starts like an
     * upload, with the same checks, quota and engine.
     */
    async startFromRows(
      ownerId: string,
      input: { formatId: string; rows: TDocumentData[]; fileNamePattern?: string; skipInvalid: boolean },
    ): Promise<TBulkJob> {
      const format = await deps.formats.get(ownerId, input.formatId);
      if (!format) throw new AppError('not_found', 'Format not found.');
      const columns = columnPlaceholders(format.placeholders).map((p) => p.name);
      const job = await deps.bulk.createDraft({
        id: randomUUID(),
        ownerId,
        formatId: format.id,
        formatName: format.name,
        fileName: 'API request',
        fileNamePattern: '',
        status: 'draft',
        columns,
        mapping: Object.fromEntries(columns.map((name, i) => [name, i])),
        sourceRows: input.rows.map((data, i) => ({
          row: i + 1,
          cells: columns.map((name) => {
            const value = data[name];
            return value === null || value === undefined || Array.isArray(value) ? '' : String(value);
          }),
          ...linesOf(format.placeholders, data),
        })),
        total: input.rows.length,
      });
      try {
        return await this.start(ownerId, job.id, { skipInvalid: input.skipInvalid, ...(input.fileNamePattern ? { fileNamePattern: input.fileNamePattern } : {}) });
      } catch (error) {
        await deps.bulk.deleteDraft(ownerId, job.id);
        throw error;
      }
    },

    /** A batch from an uploaded spreadsheet, its columns mapped to placeholders by their headers, started at once. */
    async startFromSpreadsheet(
      ownerId: string,
      input: { formatId: string; file: { fileName: string; bytes: Buffer }; fileNamePattern?: string; skipInvalid: boolean },
    ): Promise<TBulkJob> {
      const upload = await this.upload(ownerId, input.formatId, input.file);
      try {
        return await this.start(ownerId, upload.id, { skipInvalid: input.skipInvalid, ...(input.fileNamePattern ? { fileNamePattern: input.fileNamePattern } : {}) });
      } catch (error) {
        await deps.bulk.deleteDraft(ownerId, upload.id);
        throw error;
      }
    },

    async draft(ownerId: string, id: string): Promise<TBulkUpload> {
      const { job, format } = await draftWithFormat(ownerId, id);
      return draftView(ownerId, job, format);
    },

    async updateMapping(ownerId: string, id: string, mapping: TColumnMapping): Promise<TBulkUpload> {
      const { job, format } = await draftWithFormat(ownerId, id);
      const clean = checkMapping(mapping, job.columns, columnPlaceholders(format.placeholders));
      if (!(await deps.bulk.updateMapping(ownerId, id, clean))) throw jobNotFound();
      return draftView(ownerId, { ...job, mapping: clean }, format);
    },

    async discard(ownerId: string, id: string): Promise<void> {
      if (!(await deps.bulk.deleteDraft(ownerId, id))) throw jobNotFound();
    },

    async start(ownerId: string, id: string, body: z.output<typeof ZStartBulkJobBody>): Promise<TBulkJob> {
      const { job, format } = await draftWithFormat(ownerId, id);
      const checked = validateSheet({ columns: job.columns, rows: job.sourceRows ?? [] }, format.placeholders, job.mapping, format.content);
      if (checked.invalid > 0 && !body.skipInvalid) {
        throw new AppError(
          'validation_failed',
          `${checked.invalid.toLocaleString('en-US')} ${checked.invalid === 1 ? 'row has' : 'rows have'} invalid values. Fix the file and upload it again, or choose to skip invalid rows.`,
        );
      }
      if (checked.valid === 0) throw new AppError('validation_failed', 'No row is valid, so there is nothing to generate.');
      await deps.quota.assertCanGenerate(ownerId, checked.valid);
      const snapshot = await deps.formats.snapshot(ownerId, format.id, format.version);
      if (!snapshot) throw new Error(`format ${format.id} has no snapshot for version ${format.version}`);
      const columnOf = (name: string) => {
        const column = job.mapping[name];
        if (column != null) return job.columns[column] ?? name;
        const p = format.placeholders.find((x) => x.name === name);
        return p ? placeholderLabel(p) : name;
      };
      let seq = 0;
      const extras = unusedCells(job);
      const rows: TNewBulkRow[] = checked.rows.map((r) => {
        const invalid = Object.keys(r.errors).length > 0;
        return {
          row: r.row,
          seq: invalid ? -1 : seq++,
          data: r.values,
          status: invalid ? 'invalid' : 'pending',
          extra: extras.get(r.row) ?? null,
          errors: invalid ? Object.fromEntries(Object.entries(r.errors).map(([name, message]) => [columnOf(name), message])) : null,
        };
      });
      const started = await deps.bulk.start(
        ownerId,
        id,
        { snapshotId: snapshot.id, formatName: format.name, fileNamePattern: body.fileNamePattern ?? defaultFileNamePattern(format.placeholders.map((p) => p.name), format.content.documentNamePattern),
          total: checked.valid, skipped: checked.invalid },
        rows,
      );
      if (!started) throw new AppError('conflict', 'This upload has already been started.');
      const sender = await deps.chunks();
      await sender.send(chunksFor(ownerId, id, Array.from({ length: checked.valid }, (_, i) => i)));
      const row = await deps.bulk.get(ownerId, id);
      if (!row) throw jobNotFound();
      return toJob(row);
    },

    /**
     * `mode`: the API key's. Batches are made with live keys only (test keys cannot start them), so
     * a test key finds none, as it finds no live document.
     */
    async get(ownerId: string, id: string, mode?: TApiKeyMode): Promise<TBulkJob> {
      if (mode === 'test') throw jobNotFound();
      const row = await deps.bulk.get(ownerId, id);
      if (!row || row.status === 'draft') throw jobNotFound();
      return toJob(row);
    },

    async list(ownerId: string, page: { limit: number; offset: number }): Promise<TBulkJob[]> {
      return (await deps.bulk.list(ownerId, page)).map((row) => toJob(row));
    },

    async cancel(ownerId: string, id: string): Promise<TBulkJob> {
      const row = await deps.bulk.get(ownerId, id);
      if (!row || row.status === 'draft') throw jobNotFound();
      if (!(await deps.bulk.cancel(ownerId, id))) {
        throw new AppError('conflict', `This job has already ${row.status === 'cancelled' ? 'been cancelled' : 'finished'}.`);
      }
      return toJob((await deps.bulk.get(ownerId, id)) ?? row);
    },

    async rowErrors(ownerId: string, id: string, page: { limit: number; offset: number }, mode?: TApiKeyMode): Promise<{ errors: TBulkRowError[]; total: number }> {
      await this.get(ownerId, id, mode);
      const rows = await deps.bulk.rowErrors(ownerId, id, page);
      const errors = rows.flatMap((r) => Object.entries(r.errors).map(([column, message]) => ({ row: r.row, column, message })));
      return { errors, total: await deps.bulk.countRowErrors(ownerId, id) };
    },

    /** The row errors as CSV (row, column, message), streamed a page at a time. */
    async errorsCsv(ownerId: string, id: string): Promise<{ job: TBulkJob; stream: Readable }> {
      const job = await this.get(ownerId, id);
      const bulk = deps.bulk;
      async function* lines() {
        yield 'row,column,message\r\n';
        for (let offset = 0; ; offset += 1000) {
          const page = await bulk.rowErrors(ownerId, id, { limit: 1000, offset });
          for (const r of page) {
            for (const [column, message] of Object.entries(r.errors)) {
              yield `${csvCell(r.row)},${csvCell(column)},${csvCell(message)}\r\n`;
            }
          }
          if (page.length < 1000) return;
        }
      }
      return { job, stream: Readable.from(lines()) };
    },

    /**
     * The batch's PDFs as one ZIP, written while it is sent, a few documents at a time so memory
     * stays flat: the bytes the job spooled, or a re-render from the snapshot (the same bytes).
     */
    async zip(ownerId: string, id: string, mode?: TApiKeyMode): Promise<{ job: TBulkJob; stream: Readable }> {
      const job = await this.get(ownerId, id, mode);
      const row = await deps.bulk.get(ownerId, id);
      if (!row?.snapshotId) throw jobNotFound();
      if (job.done === 0) throw new AppError('conflict', 'This batch has no documents yet.');
      const snapshot = await deps.bulk.snapshotOf(ownerId, row.snapshotId);
      if (!snapshot) throw jobNotFound();
      const format: TRenderableFormat = { content: snapshot.content, placeholders: snapshot.placeholders };
      const assets = await deps.assets.forRender(ownerId, snapshot.content);
      const pool = await deps.pool();
      const zip = createZipWriter({ stallMs: zipStallMs });
      const name = uniqueNamer();
      const pattern = job.fileNamePattern;
      const bulk = deps.bulk;
      const spooled = await deps.spool.reader(id);
      const log = deps.log;
      let after = -1;
      let page: TBatchDocument[] = [];
      /** The next few documents and their PDFs: spooled, or rendered again where the spool has none. */
      const nextBatch = async (): Promise<{ docs: TBatchDocument[]; files: (Uint8Array | undefined)[] } | undefined> => {
        if (page.length === 0) {
          page = await bulk.batchDocuments(ownerId, id, after, ZIP_PAGE);
          if (page.length === 0) return undefined;
        }
        const docs = page.splice(0, ZIP_RENDER_BATCH);
        after = docs.at(-1)?.batchRow ?? after;
        const files: (Uint8Array | undefined)[] = await spooled.getMany(docs.map((d) => d.id));
        const missing = docs.flatMap((d, i) => (files[i] ? [] : [i]));
        if (missing.length > 0) {
          const rendered = await pool.render({
            format,
            assets,
            items: missing.map((i) => ({ data: docs[i]!.data, title: docs[i]!.name, creationDate: docs[i]!.createdAt.getTime() })),
            returnBytes: true,
          });
          missing.forEach((docIndex, k) => (files[docIndex] = rendered.bytes?.[k]));
        }
        return { docs, files };
      };
      // The next batch is read while this one goes out, so the disk and the client overlap. Its
      // failure is marked handled at once (it is awaited later, after this batch is sent).
      const prefetch = () => {
        const batch = nextBatch();
        batch.catch(() => undefined);
        return batch;
      };
      void (async () => {
        let upcoming: ReturnType<typeof nextBatch> | undefined;
        try {
          upcoming = prefetch();
          for (;;) {
            const batch = await upcoming;
            upcoming = undefined;
            if (!batch || zip.closed) break;
            const { docs, files } = batch;
            upcoming = prefetch();
            for (const [i, d] of docs.entries()) {
              const bytes = files[i];
              if (!bytes) continue;
              const entry = name(zipEntryName(pattern, { ...d.data, document: d.name, row: String(d.batchRow ?? '') }));
              if (!(await zip.append(entry, bytes, d.createdAt))) return;
            }
          }
          await zip.finalize();
        } catch (error) {
          log.error({ err: error, jobId: id }, 'bulk ZIP failed');
          zip.fail(error as Error);
        } finally {
          // A client that left mid-way leaves a read in flight; it must end before its file closes.
          await upcoming?.catch(() => undefined);
          await spooled.close().catch(() => undefined);
        }
      })();
      return { job, stream: zip.stream };
    },

    /** The batch's documents as one PDF, rendered in a pool thread with one copy of each font. */
    async mergedPdf(ownerId: string, id: string): Promise<{ job: TBulkJob; bytes: Uint8Array }> {
      const job = await this.get(ownerId, id);
      const row = await deps.bulk.get(ownerId, id);
      if (!row?.snapshotId) throw jobNotFound();
      if (job.done === 0) throw new AppError('conflict', 'This batch has no documents yet.');
      if (job.done > MAX_MERGED_DOCUMENTS) {
        throw new AppError(
          'bad_request',
          `A merged PDF holds at most ${MAX_MERGED_DOCUMENTS.toLocaleString('en-US')} documents; this batch has ${job.done.toLocaleString('en-US')}. Download the ZIP instead.`,
        );
      }
      const snapshot = await deps.bulk.snapshotOf(ownerId, row.snapshotId);
      if (!snapshot) throw jobNotFound();
      const docs = await deps.bulk.batchDocuments(ownerId, id, -1, MAX_MERGED_DOCUMENTS);
      const pool = await deps.pool();
      const rendered = await pool.render({
        format: { content: snapshot.content, placeholders: snapshot.placeholders },
        assets: await deps.assets.forRender(ownerId, snapshot.content),
        items: docs.map((d) => ({ data: d.data, title: d.name, creationDate: d.createdAt.getTime() })),
        returnBytes: true,
        merged: { title: `${job.formatName} - ${job.fileName}`, creationDate: (row.finishedAt ?? row.createdAt).getTime() },
      });
      const bytes = rendered.bytes?.[0];
      if (!bytes) throw new Error(`merged PDF of bulk job ${id} came back empty`);
      return { job, bytes };
    },

    /** Renders and stores one chunk of a running job. Safe to run twice for the same chunk. */
    async processChunk(payload: TBulkChunkPayload): Promise<void> {
      const { ownerId, jobId } = payload;
      const timings: Record<string, number> = {};
      let mark = performance.now();
      const lap = (name: string) => {
        const now = performance.now();
        timings[name] = Math.round(now - mark);
        mark = now;
      };
      const job = await deps.bulk.get(ownerId, jobId);
      if (!job || !job.snapshotId || (job.status !== 'queued' && job.status !== 'running')) return;
      if (job.status === 'queued') await deps.bulk.markRunning(ownerId, jobId);
      const rows = await deps.bulk.pendingRows(ownerId, jobId, payload.fromSeq, payload.toSeq);
      if (rows.length > 0) {
        const { format, assets } = await renderInputs(ownerId, job.snapshotId);
        const pool = await deps.pool();
        const createdAt = new Date();
        const shas: (string | undefined)[] = new Array(rows.length);
        const failures: { row: number; message: string }[] = [];
        const documentIds = rows.map(() => randomUUID());
        // A row whose values would make a document too large to lay out is a row error, found
        // before any rendering, like a missing required value.
        const renderable: number[] = [];
        const tooLarge = expansionChecker(format);
        rows.forEach((r, i) => {
          const problem = tooLarge(r.data);
          if (problem) failures.push({ row: r.row, message: problem });
          else renderable.push(i);
        });
        // Named as the format's version says: its pattern, else the format and the row's client.
        const nameOf = (row: number, data: Readonly<Record<string, unknown>>) =>
          batchDocumentName({ name: job.formatName, documentNamePattern: format.content.documentNamePattern }, row, data, createdAt.toISOString().slice(0, 10));
        const items = renderable.map((i) => ({
          data: rows[i]!.data,
          title: nameOf(rows[i]!.row, rows[i]!.data),
          creationDate: createdAt.getTime(),
        }));
        const packPath = items.length > 0 ? await deps.spool.prepare(jobId, documentIds[0]!).catch(() => undefined) : undefined;
        const spool = packPath ? { spool: { packPath, documentIds: renderable.map((i) => documentIds[i]!) } } : {};
        lap('loadMs');
        try {
          const result = items.length > 0 ? await pool.render({ format, assets, items, returnBytes: false, ...spool }) : { sha256: [] };
          result.sha256.forEach((sha, k) => (shas[renderable[k]!] = sha));
        } catch (error) {
          // One bad row must not sink its neighbours: render them one by one to find it.
          deps.log.error({ err: error, jobId }, 'bulk chunk render failed; retrying row by row');
          for (const [k, item] of items.entries()) {
            const i = renderable[k]!;
            try {
              shas[i] = (await pool.render({ format, assets, items: [item], returnBytes: false })).sha256[0];
            } catch {
              failures.push({ row: rows[i]!.row, message: 'The document could not be rendered.' });
            }
          }
        }
        lap('renderMs');
        const { limit } = await quota(ownerId);
        const outcome = await deps.bulk.commitChunk({
          ownerId,
          jobId,
          limit,
          createdAt,
          failures,
          documents: rows.flatMap((r, i) => {
            const sha = shas[i];
            if (!sha) return [];
            const name = nameOf(r.row, r.data);
            return [
              {
                id: documentIds[i]!,
                row: r.row,
                name,
                clientName: clientNameOf(r.data) ?? DEFAULT_CLIENT_NAME,
                data: r.data,
                pdfSha256: sha,
              },
            ];
          }),
        });
        lap('commitMs');
        timings.made = outcome.madeRows.length;
      }
      if (rows.length > 0) deps.log.info({ jobId, fromSeq: payload.fromSeq, rows: rows.length, ...timings }, 'bulk chunk done');
      await finishIfDone(ownerId, jobId);
    },

    /** Re-queues the chunks of jobs a stopped or crashed process left unfinished, and sweeps old spools. */
    async resumeUnfinished(): Promise<number> {
      await deps.spool.sweep(SPOOL_MAX_AGE_MS);
      const jobs = await deps.bulk.unfinishedJobs();
      if (jobs.length === 0) return 0;
      const sender = await deps.chunks();
      for (const job of jobs) {
        const seqs = await deps.bulk.pendingSeqs(job.ownerId, job.id);
        if (seqs.length === 0) await finishIfDone(job.ownerId, job.id);
        else await sender.send(chunksFor(job.ownerId, job.id, seqs));
      }
      return jobs.length;
    },
  };
}
export type TBulkService = ReturnType<typeof createBulkService>;
export type { TStartBulkJobBody };
