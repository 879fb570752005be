import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { columnPlaceholders, DEFAULT_FILE_NAME_PATTERN, type TBulkJob, type ZStartBulkJobBody } from '../../../contract/bulk.ts';
import type { TDocumentData } from '../../../contract/documents.ts';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import { AppError } from '../../http/app-error.ts';
import { chunksFor } from '../../jobs/bulk-chunk.job.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { jobNotFound, toJob } from './bulk-job-view.ts';
import type { TBulkJobRow, TNewBulkRow } from './bulk.repository.ts';
import { validateSheet } from './column-mapping.ts';
import { draftWithFormat, type createDraftUploads } from './draft-uploads.ts';
import type { TSheetRow } from './spreadsheet/sheet-types.ts';

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

/** Starts a batch: a checked draft's rows become queued chunks, or JSON rows and one-step uploads go the same way. */
export function createBatchStarts(deps: TBulkServiceDeps, drafts: Pick<ReturnType<typeof createDraftUploads>, 'upload'>) {
  const starts = {
    /**
     * A batch from rows an API client sent as JSON: each row becomes a spreadsheet row whose
     * columns are the format's placeholders (row 1 is the first row sent), then starts like an
     * upload, with the same checks, quota and engine.
     */
    async startFromRows(
      ownerId: string,
      input: { formatId: string; rows: TDocumentData[]; fileNamePattern?: string; skipInvalid: boolean },
    ): Promise<TBulkJob> {
      const format = await deps.formats.findOwned(ownerId, input.formatId);
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
        return await starts.start(ownerId, job.id, {
          skipInvalid: input.skipInvalid,
          ...(input.fileNamePattern ? { fileNamePattern: input.fileNamePattern } : {}),
        });
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
      const upload = await drafts.upload(ownerId, input.formatId, input.file);
      try {
        return await starts.start(ownerId, upload.id, {
          skipInvalid: input.skipInvalid,
          ...(input.fileNamePattern ? { fileNamePattern: input.fileNamePattern } : {}),
        });
      } catch (error) {
        await deps.bulk.deleteDraft(ownerId, upload.id);
        throw error;
      }
    },

    async start(ownerId: string, id: string, body: z.output<typeof ZStartBulkJobBody>): Promise<TBulkJob> {
      const { job, format } = await draftWithFormat(deps, ownerId, id);
      const checked = validateSheet({ columns: job.columns, rows: job.sourceRows ?? [] }, format.placeholders, job.mapping, format.content);
      if (checked.invalid > 0 && !body.skipInvalid) {
        throw new AppError(
          'validation_failed',
          `${checked.invalid.toLocaleString('en-US')} ${checked.invalid === 1 ? 'row has' : 'rows have'} invalid values. Fix the file and upload it again, or choose to skip invalid rows.`,
        );
      }
      if (checked.valid === 0) throw new AppError('validation_failed', 'No row is valid, so there is nothing to generate.');
      await deps.quota.assertCanGenerate(ownerId, checked.valid);
      const snapshot = await deps.formats.snapshotOf(ownerId, format.id, format.version);
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
        {
          snapshotId: snapshot.id,
          formatName: format.name,
          fileNamePattern: body.fileNamePattern ?? DEFAULT_FILE_NAME_PATTERN,
          total: checked.valid,
          skipped: checked.invalid,
        },
        rows,
      );
      if (!started) throw new AppError('conflict', 'This upload has already been started.');
      const sender = await deps.chunks();
      await sender.send(
        chunksFor(
          ownerId,
          id,
          Array.from({ length: checked.valid }, (_, i) => i),
        ),
      );
      const row = await deps.bulk.get(ownerId, id);
      if (!row) throw jobNotFound();
      return toJob(row);
    },
  };
  return starts;
}
