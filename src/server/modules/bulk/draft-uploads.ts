import { randomUUID } from 'node:crypto';
import { BULK_PREVIEW_ROWS, columnPlaceholders, type TBulkUpload, type TColumnMapping } from '../../../contract/bulk.ts';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders.ts';
import { AppError } from '../../http/app-error.ts';
import type { TFormatRow } from '../formats/index.ts';
import type { TBulkServiceDeps } from './bulk-deps.ts';
import { jobNotFound } from './bulk-job-view.ts';
import type { TBulkJobRow } from './bulk.repository.ts';
import { autoMapColumns, recogniseHeaderRow, validateSheet } from './column-mapping.ts';
import { attachLines, lineColumnIndexes } from './list-lines.ts';
import { readSpreadsheet } from './spreadsheet/read-spreadsheet.ts';
import type { TSheet } from './spreadsheet/sheet-types.ts';

/** Extra invalid rows shown beyond the first rows, so a problem far down the file is visible too. */
const PREVIEW_EXTRA_INVALID = 30;

/** A draft (an upload not started yet) and its format; a started or orphaned one is refused. */
export async function draftWithFormat(deps: TBulkServiceDeps, ownerId: string, id: string) {
  const job = await deps.bulk.get(ownerId, id);
  if (!job) throw jobNotFound();
  if (job.status !== 'draft') throw new AppError('conflict', 'This upload has already been started.');
  const format = job.formatId ? await deps.formats.findOwned(ownerId, job.formatId) : undefined;
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

/** Uploads a spreadsheet as a draft, previews it, and maps its columns before it is started. */
export function createDraftUploads(deps: TBulkServiceDeps) {
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
      unmappedPlaceholders: columnPlaceholders(placeholders)
        .filter((p) => mapping[p.name] == null)
        .map((p) => p.name),
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

  return {
    async upload(ownerId: string, formatId: string, file: { fileName: string; bytes: Buffer }, createdBy: string | null = null): Promise<TBulkUpload> {
      const format = await deps.formats.findOwned(ownerId, formatId);
      if (!format) throw new AppError('not_found', 'Format not found.');
      if (format.placeholders.length === 0) {
        throw new AppError('validation_failed', 'This format has no placeholders, so a spreadsheet has nothing to fill in.');
      }
      // A format with lists takes its lines from other sheets, or from rows that repeat a key.
      const read = await readSpreadsheet(file.bytes, file.fileName, { otherSheets: format.placeholders.some((p) => p.type === 'list') });
      const { sheet } = attachLines(recogniseHeaderRow(read, format.placeholders), format.placeholders);
      const job = await deps.bulk.createDraft({
        id: randomUUID(),
        ownerId,
        createdBy,
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

    async draft(ownerId: string, id: string): Promise<TBulkUpload> {
      const { job, format } = await draftWithFormat(deps, ownerId, id);
      return draftView(ownerId, job, format);
    },

    async updateMapping(ownerId: string, id: string, mapping: TColumnMapping): Promise<TBulkUpload> {
      const { job, format } = await draftWithFormat(deps, ownerId, id);
      const clean = checkMapping(mapping, job.columns, columnPlaceholders(format.placeholders));
      if (!(await deps.bulk.updateMapping(ownerId, id, clean))) throw jobNotFound();
      return draftView(ownerId, { ...job, mapping: clean }, format);
    },

    async discard(ownerId: string, id: string): Promise<void> {
      if (!(await deps.bulk.deleteDraft(ownerId, id))) throw jobNotFound();
    },
  };
}
