import type { TDocumentData } from '../../../contract/documents.ts';
import { canonicalLocale } from '../../../contract/admin.ts';
import type { TFormat, TFormatInputParsed } from '../../../contract/formats.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { TAssetsService } from '../assets/index.ts';
import type { TPdfService } from '../pdf/index.ts';
import type { TWorkLimits } from '../quota/index.ts';
import type { TUserAccounts } from '../users/index.ts';
import type { TSystemService } from '../system/index.ts';
import { buildExcelTemplate } from './excel-template.ts';
import type { TFormatRow, TFormatsRepository, TSnapshotRow } from './formats.repository.ts';

export function toFormat(row: TFormatRow, readOnly = false): TFormat {
  return {
    readOnly,
    id: row.id,
    name: row.name,
    description: row.description,
    content: row.content,
    placeholders: row.placeholders,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdBy: row.createdBy,
  };
}

const formatNotFound = () => notFound('Format');

/**
 * What the documents and bulk modules and the account export read of formats: rows as stored,
 * each query filtered by the owner, so nothing outside this module needs its repository.
 */
function ownedReads(formats: TFormatsRepository) {
  return {
    /** The owner's format, or undefined when there is none (or it is another owner's). */
    findOwned(ownerId: string, id: string): Promise<TFormatRow | undefined> {
      return formats.get(ownerId, id);
    },

    /** The owner's formats as stored, newest edit first. */
    listOwned(ownerId: string): Promise<TFormatRow[]> {
      return formats.list(ownerId);
    },

    /** The snapshot of one version of the owner's format: what a batch's documents are made from. */
    snapshotOf(ownerId: string, formatId: string, version: number): Promise<TSnapshotRow | undefined> {
      return formats.snapshot(ownerId, formatId, version);
    },

    /** The format's name and version with the snapshot of that version: what a new document is made from. */
    currentSnapshot(ownerId: string, formatId: string): ReturnType<TFormatsRepository['currentSnapshot']> {
      return formats.currentSnapshot(ownerId, formatId);
    },

    /** Forgets the format's current version this process remembered: a document made from it was refused as stale. */
    forgetCurrent(ownerId: string, formatId: string): void {
      formats.forgetCurrent(ownerId, formatId);
    },
  };
}

export function createFormatsService(deps: {
  formats: TFormatsRepository;
  users: Pick<TUserAccounts, 'planOf'>;
  system: TSystemService;
  pdf: TPdfService;
  limits: Pick<TWorkLimits, 'takePreview' | 'assertMayPreview' | 'enter'>;
  assets: Pick<TAssetsService, 'fetchImagesOf'>;
}) {
  /**
   * Formats beyond the plan's allowance, after an account returns to a smaller plan: kept, and
   * usable for documents, but not edited. The most recently edited ones stay editable, so the
   * format the user works on is the one they keep working on.
   */
  async function readOnlyIds(ownerId: string, rows?: TFormatRow[]): Promise<Set<string>> {
    const planId = await deps.users.planOf(ownerId);
    const plan = (await deps.system.planCatalogue()).find((p) => p.id === planId);
    if (plan?.formatLimit == null) return new Set();
    const newestFirst = rows ?? (await deps.formats.list(ownerId));
    return new Set(newestFirst.slice(plan.formatLimit).map((r) => r.id));
  }

  /**
   * A format is written in a language, kept in the version it is saved as so that the version's
   * documents print alike whatever the installation's setting says later. A new format that names
   * none gets the installation's; a format saved before formats had a language keeps printing in
   * en-US until someone chooses. A tag is kept in its canonical form (`de-de` reads `de-DE`).
   */
  async function inItsLanguage(input: TFormatInputParsed, isNew: boolean): Promise<TFormatInputParsed> {
    const given = input.content.locale;
    const locale = given ? (canonicalLocale(given) ?? given) : isNew ? await deps.system.documentLocale() : undefined;
    return locale === given ? input : { ...input, content: { ...input.content, locale } };
  }

  async function load(ownerId: string, id: string): Promise<TFormatRow> {
    const row = await deps.formats.get(ownerId, id);
    if (!row) throw formatNotFound();
    return row;
  }

  /**
   * The format as a PDF: each value given is printed as its type prints it, every other
   * placeholder as its [Label], and an empty list as three sample rows. Formulas are computed
   * from what was given. `showAll` prints every element whatever its condition (the builder's
   * preview, where nothing has been filled in to decide them).
   */
  async function previewPdf(
    ownerId: string,
    format: Pick<TFormatRow, 'name' | 'content' | 'placeholders'>,
    date: Date,
    values: Readonly<TDocumentData> = {},
    showAll = false,
  ) {
    const { content, placeholders, data } = await deps.pdf.previewData(ownerId, format, values, showAll);
    const { pdf } = await deps.pdf.render({ ownerId, format: { content, placeholders }, data, title: format.name, creationDate: date });
    return pdf;
  }
  return {
    load,

    ...ownedReads(deps.formats),

    async list(ownerId: string): Promise<TFormat[]> {
      const rows = await deps.formats.list(ownerId);
      const readOnly = await readOnlyIds(ownerId, rows);
      return rows.map((row) => toFormat(row, readOnly.has(row.id)));
    },

    async get(ownerId: string, id: string): Promise<TFormat> {
      const row = await load(ownerId, id);
      return toFormat(row, (await readOnlyIds(ownerId)).has(row.id));
    },

    /** Newest first by creation, after a cursor; `rows` carry the cursor's fields. */
    async page(ownerId: string, query: Parameters<TFormatsRepository['page']>[1]): Promise<{ formats: TFormat[]; rows: TFormatRow[] }> {
      const rows = await deps.formats.page(ownerId, query);
      return { formats: rows.map((row) => toFormat(row)), rows };
    },

    async create(ownerId: string, input: TFormatInputParsed, createdBy: string | null = null): Promise<TFormat> {
      const planId = await deps.users.planOf(ownerId);
      if (planId === undefined) throw notFound('User');
      const plan = (await deps.system.planCatalogue()).find((p) => p.id === planId);
      await deps.assets.fetchImagesOf(ownerId, input.content);
      const row = await deps.formats.create(
        ownerId,
        await inItsLanguage(input, true),
        (existing) => {
          if (plan?.formatLimit != null && existing >= plan.formatLimit) {
            const noun = plan.formatLimit === 1 ? 'format' : 'formats';
            throw new AppError('plan_limit', `The ${plan.name} plan includes ${plan.formatLimit} ${noun}. Upgrade your plan to create more.`);
          }
        },
        createdBy,
      );
      return toFormat(row);
    },

    async update(ownerId: string, id: string, input: TFormatInputParsed): Promise<TFormat> {
      if ((await readOnlyIds(ownerId)).has(id)) {
        const planId = await deps.users.planOf(ownerId);
        const plan = (await deps.system.planCatalogue()).find((p) => p.id === planId);
        const limit = plan?.formatLimit ?? 0;
        throw new AppError(
          'plan_limit',
          `This format is read-only: the ${plan?.name ?? 'current'} plan includes ${limit} ${limit === 1 ? 'format' : 'formats'}, and your others are kept but cannot be edited. Upgrade your plan to edit it, or delete formats you no longer need.`,
        );
      }
      await deps.assets.fetchImagesOf(ownerId, input.content);
      const row = await deps.formats.update(ownerId, id, await inItsLanguage(input, false));
      if (!row) throw formatNotFound();
      return toFormat(row);
    },

    async delete(ownerId: string, id: string): Promise<void> {
      if (!(await deps.formats.delete(ownerId, id))) throw formatNotFound();
    },

    async excelTemplate(ownerId: string, id: string): Promise<{ name: string; bytes: Buffer }> {
      const row = await load(ownerId, id);
      return { name: row.name, bytes: await buildExcelTemplate(row.name, row.placeholders) };
    },

    /**
     * Admits a preview before its body is read: refused past the user's preview rate, or with too
     * many in progress. Call the answer when it is done.
     */
    async admitPreview(ownerId: string, bodyBytes: number | undefined): Promise<() => void> {
      await deps.limits.assertMayPreview(ownerId);
      return deps.limits.enter('preview', ownerId, bodyBytes);
    },

    /** The saved format as a PDF, with every placeholder shown as its label in brackets. */
    async preview(ownerId: string, id: string): Promise<Uint8Array> {
      await deps.limits.takePreview(ownerId);
      const row = await load(ownerId, id);
      return previewPdf(ownerId, row, row.updatedAt, {}, true);
    },

    /** The form's live preview: the saved format filled with the values typed so far; nothing is stored or counted. */
    async previewFilled(ownerId: string, id: string, data: TDocumentData): Promise<Uint8Array> {
      await deps.limits.takePreview(ownerId);
      const row = await load(ownerId, id);
      return previewPdf(ownerId, row, row.updatedAt, data);
    },

    /** The builder's live preview of content not saved yet; nothing is stored. */
    async previewUnsaved(ownerId: string, input: TFormatInputParsed): Promise<Uint8Array> {
      await deps.limits.takePreview(ownerId);
      await deps.assets.fetchImagesOf(ownerId, input.content);
      return previewPdf(ownerId, await inItsLanguage(input, false), new Date(0), {}, true);
    },
  };
}
export type TFormatsService = ReturnType<typeof createFormatsService>;
