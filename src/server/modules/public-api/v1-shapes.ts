import type { TBulkJob } from '../../../contract/bulk.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { placeholderLabel, type TListColumn, type TPlaceholder } from '../../../contract/placeholders.ts';
import { API_V1_PREFIX, type TV1Batch, type TV1Document, type TV1FormatSummary } from '../../../contract/public-api.ts';

/** The absolute URLs the API answers point to, on this installation's public address. */
export function v1Urls(publicUrl: string) {
  const url = (path: string) => `${publicUrl}${path}`;
  return {
    format: (id: string) => url(`${API_V1_PREFIX}/formats/${id}`),
    document: (id: string) => url(`${API_V1_PREFIX}/documents/${id}`),
    delivery: (id: string) => url(`${API_V1_PREFIX}/deliveries/${id}`),
    batch: (id: string) => url(`${API_V1_PREFIX}/batches/${id}`),
    signatureRequest: (id: string) => url(`${API_V1_PREFIX}/signature-requests/${id}`),
  };
}
export type TV1Urls = ReturnType<typeof v1Urls>;

/** A placeholder or a list's column as the API describes it. */
function v1Field(p: TPlaceholder | TListColumn) {
  return {
    name: p.name,
    label: placeholderLabel(p),
    type: p.type,
    required: p.required,
    options: p.options,
    ...(p.expression !== undefined ? { expression: p.expression } : {}),
  };
}

export function toV1FormatSummary(format: TFormat): TV1FormatSummary {
  return {
    id: format.id,
    name: format.name,
    description: format.description,
    version: format.version,
    placeholders: format.placeholders.map((p) => ({
      ...v1Field(p),
      ...(p.columns ? { columns: p.columns.map(v1Field) } : {}),
      ...(p.minItems !== undefined ? { minItems: p.minItems } : {}),
      ...(p.maxItems !== undefined ? { maxItems: p.maxItems } : {}),
    })),
    createdAt: format.createdAt,
    updatedAt: format.updatedAt,
  };
}

export function toV1Document(urls: TV1Urls, document: TDocument): TV1Document {
  return {
    id: document.id,
    name: document.name,
    formatId: document.formatId,
    formatName: document.formatName,
    clientName: document.clientName,
    data: document.data,
    status: 'generated',
    pdfUrl: `${urls.document(document.id)}/pdf`,
    pdfSha256: document.pdfSha256,
    batchId: document.batchId,
    test: document.test,
    ...(document.accessibility && { accessibility: document.accessibility }),
    warnings: document.warnings,
    createdAt: document.createdAt,
    createdBy: document.createdBy,
  };
}

export function toV1Batch(urls: TV1Urls, job: TBulkJob): TV1Batch {
  return {
    id: job.id,
    formatId: job.formatId,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    skipped: job.skipped,
    zipUrl: `${urls.batch(job.id)}/zip`,
    errorsUrl: `${urls.batch(job.id)}/errors`,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    message: job.message,
  };
}
