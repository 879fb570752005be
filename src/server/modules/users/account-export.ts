/**
 * "Export my data": one ZIP of everything the account holds, written while it is read (the batch
 * ZIP's writer), so memory stays flat whatever the account's size. A small account's export is
 * the answer itself; a large one's is built by the job queue into a file the owner downloads.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { TAccountExport, TAccountExportStatus } from '../../../contract/account-data.ts';
import { API_KEY_PREFIX } from '../../../contract/api-keys.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormatInput } from '../../../contract/formats.ts';
import { createZipWriter, type TZipWriter } from '../../files/zip-writer.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { safeFileBaseName } from '../../http/send-file.ts';
import { ensureQueue, type TJobQueue } from '../../jobs/queue.ts';
import type { TBillingService } from '../billing/index.ts';
import { csvCell } from '../bulk/index.ts';
import type { TDocumentsService } from '../documents/documents.service.ts';
import type { TFormatsRepository } from '../formats/formats.repository.ts';
import type { TAccountDataRepository, TAccountExportRow } from './account-data.repository.ts';
import type { TUsersRepository } from './users.repository.ts';

export const ACCOUNT_EXPORT_LIMITS = {
  /** Accounts with more documents than this are exported in the background (a few seconds of PDFs). */
  backgroundAbove: 200,
  /** Exports a user may start in 24 hours, whichever way they are made. */
  perDay: 3,
  /** How long a background export's download works. */
  linkDays: 7,
  /** An export still "running" after this long was lost with its process and no longer blocks a new one. */
  staleAfterMs: 2 * 60 * 60_000,
};

export const ACCOUNT_EXPORT_QUEUE = 'account-export';
const ZExportPayload = z.object({ ownerId: z.string().min(1), exportId: z.string().min(1) });
/** Documents read per query while writing. */
const PAGE = 100;
const DAY_MS = 24 * 60 * 60_000;

const README = `Your Formwork data
==================

This archive holds everything your Formwork account contained when it was exported.

account/
  profile.json         your name, email address, role, plan and when the account was made
  subscription.json    your paid subscription (plan, cycle, gateway, period), or null
  api-keys.json        your API keys' names and prefixes (the keys themselves are never stored)
  webhooks.json        your webhook endpoints and their events (signing secrets are left out)
  email-settings.json  your own SMTP server settings (the password is left out)
  share-links.json     the share links you made (the links' tokens are left out)

formats/NAME.json
  One file per format, in exactly the shape the API takes to create one:
  POST /api/v1/formats with the file as its body makes the same format again.
  Uploaded images are referenced as /api/assets/ID; the images themselves are in assets/.

assets/ID.png, assets/ID.jpg   the images you uploaded (or that were fetched once from an address)

documents/NAME.pdf    the document, byte for byte as its download gives it
documents/NAME.json   the document as the API returns it, with the data it was filled with
documents/NAME.csv    the same data as one spreadsheet row (lists as JSON text; a value that
                      starts with = + - or @ has a ' in front, so no spreadsheet runs it)

invoices/invoices.json       the list of your invoices
invoices/formwork-invoice-NUMBER.pdf   each invoice, as Billing downloads it
`;

/** Makes entry base names unique within the archive, case-insensitively. */
function uniqueBaseNamer(): (name: string) => string {
  const used = new Set<string>();
  return (raw) => {
    const name = safeFileBaseName(raw).replace(/^[\s.]+|[\s.]+$/g, '') || 'untitled';
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name} (${n})`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

/** The document's data as a header row and one row of values. */
export function documentDataCsv(data: TDocument['data']): string {
  const names = Object.keys(data);
  const values = names.map((name) => {
    const value = data[name];
    return typeof value === 'string' ? value : JSON.stringify(value ?? '');
  });
  return `${names.map(csvCell).join(',')}\r\n${values.map(csvCell).join(',')}\r\n`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function createAccountExport(deps: {
  data: TAccountDataRepository;
  users: TUsersRepository;
  formats: TFormatsRepository;
  documents: TDocumentsService;
  billing: Pick<TBillingService, 'invoices' | 'invoicePdf'>;
  queue: TJobQueue;
  /** Where background exports are written (data_dir/exports). */
  dir: string;
  /** Tells the owner a background export is ready (or failed); false without a mail server. */
  notify: (userId: string, notice: { subject: string; text: string }) => Promise<boolean>;
  publicUrl: string;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  /** Tests lower it to reach the background path without thousands of documents. */
  backgroundAbove?: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const backgroundAbove = deps.backgroundAbove ?? ACCOUNT_EXPORT_LIMITS.backgroundAbove;
  const fileOf = (id: string) => path.join(deps.dir, `${id}.zip`);

  function view(row: TAccountExportRow): TAccountExport {
    const expired = row.status === 'ready' && row.kind === 'background' && (!row.expiresAt || row.expiresAt <= now());
    const status = expired ? 'expired' : row.status;
    return {
      id: row.id,
      kind: row.kind,
      status,
      documentsTotal: row.documentsTotal,
      documentsDone: row.documentsDone,
      bytes: row.bytes,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      downloadUrl: status === 'ready' && row.kind === 'background' ? `/api/user/exports/${row.id}/download` : null,
    };
  }

  /** Writes the whole archive into `zip`; `progress` hears the documents done so far. */
  async function writeArchive(ownerId: string, zip: TZipWriter, progress: (done: number) => Promise<void>): Promise<boolean> {
    const user = await deps.users.findById(ownerId);
    if (!user) throw notFound('User');
    const records = await deps.data.records(ownerId);
    const at = now();
    const files: [string, string | Uint8Array, Date?][] = [
      ['README.txt', README],
      [
        'account/profile.json',
        json({
          id: user.id,
          email: user.email,
          emailVerified: user.emailVerified,
          firstName: user.firstName,
          lastName: user.lastName,
          role: user.role,
          plan: user.subscriptionPlan,
          apiEnabled: user.apiEnabled,
          generationLimitOverride: user.apiCallsLimit,
          createdAt: user.createdAt.toISOString(),
          exportedAt: at.toISOString(),
        }),
      ],
      ['account/subscription.json', json(records.subscription ?? null)],
      [
        'account/api-keys.json',
        json(
          records.keys.map((k) => ({
            name: k.name,
            mode: k.mode,
            prefix: `${API_KEY_PREFIX[k.mode]}…${k.last4}`,
            createdAt: k.createdAt,
            lastUsedAt: k.lastUsedAt,
            revokedAt: k.revokedAt,
          })),
        ),
      ],
      ['account/webhooks.json', json(records.hooks)],
      [
        'account/email-settings.json',
        json({ fromAddress: user.enterpriseEmail, smtpHost: user.smtpHost, smtpPort: user.smtpPort, smtpSecure: user.smtpSecure }),
      ],
      ['account/share-links.json', json(records.links)],
    ];
    for (const [name, body] of files) if (!(await zip.append(name, body, at))) return false;

    const formatName = uniqueBaseNamer();
    for (const format of await deps.formats.list(ownerId)) {
      const input: TFormatInput = { name: format.name, description: format.description, content: format.content, placeholders: format.placeholders };
      if (!(await zip.append(`formats/${formatName(format.name)}.json`, json(input), format.updatedAt))) return false;
    }

    for (const asset of await deps.data.assetList(ownerId)) {
      const bytes = await deps.data.assetBytes(ownerId, asset.id);
      const extension = asset.mimeType === 'image/png' ? 'png' : 'jpg';
      if (bytes && !(await zip.append(`assets/${asset.id}.${extension}`, bytes, asset.createdAt))) return false;
    }

    const documentName = uniqueBaseNamer();
    let after: { createdAt: Date; id: string } | undefined;
    let done = 0;
    for (;;) {
      const { documents, rows } = await deps.documents.page(ownerId, { limit: PAGE, ...(after ? { after } : {}) });
      for (const document of documents) {
        const { bytes } = await deps.documents.pdf(ownerId, document.id);
        const base = `documents/${documentName(document.name)}`;
        const date = new Date(document.createdAt);
        if (!(await zip.append(`${base}.pdf`, bytes, date))) return false;
        if (!(await zip.append(`${base}.json`, json(document), date))) return false;
        if (!(await zip.append(`${base}.csv`, documentDataCsv(document.data), date))) return false;
      }
      done += documents.length;
      if (rows.length < PAGE) break;
      const last = rows.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
      await progress(done);
    }

    const invoices = await deps.billing.invoices(ownerId);
    if (!(await zip.append('invoices/invoices.json', json(invoices), at))) return false;
    for (const invoice of invoices) {
      const { pdf, fileName } = await deps.billing.invoicePdf(invoice.id, ownerId);
      if (!(await zip.append(`invoices/${fileName}`, pdf, at))) return false;
    }
    await progress(done);
    await zip.finalize();
    return true;
  }

  /** One export in flight and `perDay` a day; a refusal says when the next one may start. */
  async function assertMayStart(ownerId: string): Promise<void> {
    const at = now();
    const recent = await deps.data.recentExports(ownerId, new Date(at.getTime() - DAY_MS));
    const inFlight = recent.find((r) => r.status === 'running' && at.getTime() - r.createdAt.getTime() < ACCOUNT_EXPORT_LIMITS.staleAfterMs);
    if (inFlight) {
      throw new AppError('rate_limited', 'An export of your data is being prepared already. Wait for it to finish, then download it from Settings → Profile.', undefined, {
        'retry-after': '60',
      });
    }
    if (recent.length >= ACCOUNT_EXPORT_LIMITS.perDay) {
      const oldest = recent.at(-1)!;
      const seconds = Math.max(1, Math.ceil((oldest.createdAt.getTime() + DAY_MS - at.getTime()) / 1000));
      throw new AppError(
        'rate_limited',
        `You can export your data ${ACCOUNT_EXPORT_LIMITS.perDay} times in 24 hours. The next export can start in about ${Math.ceil(seconds / 3600)} hour(s).`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
  }

  let working: Promise<void> | undefined;
  /** Takes background exports in this process (from the first one asked for, or a look at the status). */
  function startWorking(): Promise<void> {
    return (working ??= (async () => {
      await deps.queue.start();
      await ensureQueue(deps.queue, ACCOUNT_EXPORT_QUEUE);
      await deps.queue.boss.work<z.infer<typeof ZExportPayload>>(ACCOUNT_EXPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const job of jobs) await build(ZExportPayload.parse(job.data));
      });
    })().catch((error: unknown) => {
      working = undefined;
      throw error;
    }));
  }

  async function build({ ownerId, exportId }: z.infer<typeof ZExportPayload>): Promise<void> {
    const row = await deps.data.getExport(ownerId, exportId);
    if (!row || row.status !== 'running') return;
    await mkdir(deps.dir, { recursive: true });
    const partial = path.join(deps.dir, `${exportId}.${randomUUID()}.part`);
    const zip = createZipWriter({ stallMs: 10 * 60_000 });
    const written = pipeline(zip.stream, createWriteStream(partial));
    written.catch(() => undefined);
    try {
      const complete = await writeArchive(ownerId, zip, (done) => deps.data.exportProgress(ownerId, exportId, done));
      await written;
      if (!complete) throw new Error('the export file stopped taking bytes');
      await rename(partial, fileOf(exportId));
      const { size } = await stat(fileOf(exportId));
      const expiresAt = new Date(now().getTime() + ACCOUNT_EXPORT_LIMITS.linkDays * DAY_MS);
      await deps.data.finishExport(ownerId, exportId, { status: 'ready', bytes: size, expiresAt });
      await deps
        .notify(ownerId, {
          subject: 'Your Formwork data export is ready',
          text: [
            'Hello,',
            '',
            'The export of your Formwork data you asked for is ready. Download it while signed in:',
            '',
            `${deps.publicUrl}/api/user/exports/${exportId}/download`,
            '',
            `It is also under Settings → Profile → Your data. The link works for you only, until ${expiresAt.toUTCString()}.`,
            '',
            '— Formwork',
          ].join('\n'),
        })
        .catch((error: unknown) => deps.log.warn({ err: error }, 'could not send the export notice'));
    } catch (error) {
      zip.fail(error as Error);
      await written.catch(() => undefined);
      await rm(partial, { force: true });
      deps.log.error({ err: error, exportId }, 'account export failed');
      await deps.data.finishExport(ownerId, exportId, { status: 'failed' });
    }
  }

  let lastSweep = 0;
  /** Removes the files of background exports past their date (at most hourly). */
  async function sweepExpired(): Promise<void> {
    if (Date.now() - lastSweep < 60 * 60_000) return;
    lastSweep = Date.now();
    for (const row of await deps.data.expiredExports(now())) await rm(fileOf(row.id), { force: true });
  }

  return {
    backgroundAbove,
    startWorking,

    async status(ownerId: string): Promise<TAccountExportStatus> {
      void sweepExpired().catch((error: unknown) => deps.log.warn({ err: error }, 'could not sweep expired exports'));
      const at = now();
      const [latest, recent] = await Promise.all([deps.data.latestExport(ownerId), deps.data.recentExports(ownerId, new Date(at.getTime() - DAY_MS))]);
      // A background export left unfinished by a restart carries on once its owner looks.
      if (latest?.kind === 'background' && latest.status === 'running') {
        void startWorking().catch((error: unknown) => deps.log.error({ err: error }, 'could not start the export worker'));
      }
      return {
        latest: latest ? view(latest) : null,
        backgroundAbove,
        perDay: ACCOUNT_EXPORT_LIMITS.perDay,
        remainingToday: Math.max(0, ACCOUNT_EXPORT_LIMITS.perDay - recent.length),
      };
    },

    /**
     * Starts an export: the archive's stream at once for an account up to `backgroundAbove`
     * documents, else a background job whose record is answered.
     */
    async start(ownerId: string): Promise<{ kind: 'direct'; stream: Readable; fileName: string } | { kind: 'background'; export: TAccountExport }> {
      await assertMayStart(ownerId);
      const total = await deps.data.countDocuments(ownerId);
      if (total > backgroundAbove) {
        const row = await deps.data.startExport(ownerId, 'background', total);
        await startWorking();
        await deps.queue.boss.send(ACCOUNT_EXPORT_QUEUE, { ownerId, exportId: row.id }, { expireInSeconds: 6 * 60 * 60, retryLimit: 2, retryDelay: 30 });
        return { kind: 'background', export: view(row) };
      }
      const row = await deps.data.startExport(ownerId, 'direct', total);
      const zip = createZipWriter();
      void (async () => {
        try {
          if (!(await writeArchive(ownerId, zip, async () => {}))) throw new Error('the client left before the export was complete');
          // Done once the client has read the last byte.
          await finished(zip.stream);
          await deps.data.finishExport(ownerId, row.id, { status: 'ready' });
        } catch (error) {
          deps.log.warn({ err: error, exportId: row.id }, 'account export did not finish');
          zip.fail(error as Error);
          await deps.data.finishExport(ownerId, row.id, { status: 'failed' }).catch(() => undefined);
        }
      })();
      const day = now().toISOString().slice(0, 10);
      return { kind: 'direct', stream: zip.stream, fileName: `formwork-data-${day}.zip` };
    },

    /** A finished background export's file, for its owner, until it expires. */
    async download(ownerId: string, id: string): Promise<{ stream: Readable; fileName: string }> {
      const row = await deps.data.getExport(ownerId, id);
      if (!row || row.kind !== 'background' || view(row).status !== 'ready') throw notFound('Export');
      const file = fileOf(id);
      try {
        await stat(file);
      } catch {
        throw notFound('Export');
      }
      return { stream: createReadStream(file), fileName: `formwork-data-${row.createdAt.toISOString().slice(0, 10)}.zip` };
    },

    /** The files a deleted account leaves behind. */
    async removeFiles(exportIds: string[]): Promise<void> {
      await Promise.all(exportIds.map((id) => rm(fileOf(id), { force: true })));
    },
  };
}
export type TAccountExportService = ReturnType<typeof createAccountExport>;
