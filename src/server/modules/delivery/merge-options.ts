import { DEFAULT_MERGE_MESSAGE, DEFAULT_MERGE_SUBJECT, type TMailMergeOptions } from '../../../contract/delivery.ts';
import { placeholderLabel } from '../../../contract/placeholders.ts';
import { SAMPLE_ROWS, type TMergeContext } from './merge-context.ts';
import { cellOf, checkAddress, type TFilledRow } from './merge-templates.ts';

/** What the merge form offers: the batch's columns (and which holds addresses), the sender, any merge already made. */
export async function mergeOptions(ctx: TMergeContext, ownerId: string, jobId: string): Promise<TMailMergeOptions> {
  const { deps, r, jobOf, rowsOf, mergeView } = ctx;
  const job = await jobOf(ownerId, jobId);
  const [settings, documents, merge] = await Promise.all([deps.mail.emailSettings(ownerId), r.batchDocumentCount(ownerId, jobId), r.merge(ownerId, jobId)]);
  const sample: TFilledRow[] = [];
  for await (const row of rowsOf(ownerId, jobId, SAMPLE_ROWS)) sample.push(row);
  const columns = job.columns.map((header, index) => {
    const cells = sample.map((row) => cellOf(row, index, job.mapping));
    return {
      index,
      header,
      placeholder: Object.entries(job.mapping).find(([, i]) => i === index)?.[0] ?? null,
      addresses: cells.filter((cell) => 'address' in checkAddress(cell)).length,
      sample: cells.find((cell) => cell !== '') ?? null,
    };
  });
  const best = [...columns].sort((a, b) => b.addresses - a.addresses)[0];
  return {
    columns,
    suggestedColumn: best && best.addresses > 0 ? best.index : null,
    placeholders: job.placeholders.map((p) => ({ name: p.name, label: placeholderLabel(p) })),
    defaults: { subject: DEFAULT_MERGE_SUBJECT, message: DEFAULT_MERGE_MESSAGE },
    documents,
    emailsPerHour: settings.emailsPerHour,
    sendsWith: settings.sendsWith,
    ownWords: settings.ownWords,
    ownWordsNote: settings.ownWordsNote,
    senderName: settings.senderName,
    merge: merge ? await mergeView(merge) : null,
  };
}
