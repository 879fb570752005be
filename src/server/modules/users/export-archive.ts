import { API_KEY_PREFIX } from '../../../contract/api-keys.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormatInput } from '../../../contract/formats.ts';
import type { TZipWriter } from '../../files/zip-writer.ts';
import { notFound } from '../../http/app-error.ts';
import { safeFileBaseName } from '../../http/send-file.ts';
import { csvCell } from '../csv-cell.ts';
import type { TExportContext } from './export-context.ts';

/** Documents read per query while writing. */
const PAGE = 100;

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

/** Writes the whole archive into `zip`; `progress` hears the documents done so far. */
export async function writeArchive(ctx: TExportContext, ownerId: string, zip: TZipWriter, progress: (done: number) => Promise<void>): Promise<boolean> {
  const at = ctx.now();
  if (!(await writeAccountFiles(ctx, ownerId, zip, at))) return false;
  if (!(await writeFormatsAndAssets(ctx, ownerId, zip))) return false;
  const done = await writeDocuments(ctx, ownerId, zip, progress);
  if (done === false) return false;
  if (!(await writeInvoices(ctx, ownerId, zip, at))) return false;
  await progress(done);
  await zip.finalize();
  return true;
}

/** README.txt and account/: the profile and the records that are not documents. */
async function writeAccountFiles(ctx: TExportContext, ownerId: string, zip: TZipWriter, at: Date): Promise<boolean> {
  const [user, workspace] = await Promise.all([ctx.deps.users.findById(ownerId), ctx.deps.users.workspaceOf(ownerId)]);
  if (!user || !workspace) throw notFound('User');
  const records = await ctx.deps.data.records(ownerId);
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
        plan: workspace.subscriptionPlan,
        apiEnabled: workspace.apiEnabled,
        generationLimitOverride: workspace.apiCallsLimit,
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
      json({ fromAddress: workspace.enterpriseEmail, smtpHost: workspace.smtpHost, smtpPort: workspace.smtpPort, smtpSecure: workspace.smtpSecure }),
    ],
    ['account/share-links.json', json(records.links)],
  ];
  for (const [name, body] of files) if (!(await zip.append(name, body, at))) return false;
  return true;
}

/** formats/ and assets/. */
async function writeFormatsAndAssets(ctx: TExportContext, ownerId: string, zip: TZipWriter): Promise<boolean> {
  const formatName = uniqueBaseNamer();
  for (const format of await ctx.deps.formats.listOwned(ownerId)) {
    const input: TFormatInput = { name: format.name, description: format.description, content: format.content, placeholders: format.placeholders };
    if (!(await zip.append(`formats/${formatName(format.name)}.json`, json(input), format.updatedAt))) return false;
  }

  for (const asset of await ctx.deps.data.assetList(ownerId)) {
    const bytes = await ctx.deps.data.assetBytes(ownerId, asset.id);
    const extension = asset.mimeType === 'image/png' ? 'png' : 'jpg';
    if (bytes && !(await zip.append(`assets/${asset.id}.${extension}`, bytes, asset.createdAt))) return false;
  }
  return true;
}

/** documents/, a page at a time; the number written, or false when the archive stopped taking bytes. */
async function writeDocuments(ctx: TExportContext, ownerId: string, zip: TZipWriter, progress: (done: number) => Promise<void>): Promise<number | false> {
  const documentName = uniqueBaseNamer();
  let after: { createdAt: Date; id: string } | undefined;
  let done = 0;
  for (;;) {
    const { documents, rows } = await ctx.deps.documents.page(ownerId, { limit: PAGE, ...(after ? { after } : {}) });
    for (const document of documents) {
      const { bytes } = await ctx.deps.documents.pdf(ownerId, document.id);
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
  return done;
}

/** invoices/: the list and each invoice's PDF. */
async function writeInvoices(ctx: TExportContext, ownerId: string, zip: TZipWriter, at: Date): Promise<boolean> {
  const invoices = await ctx.deps.billing.invoices(ownerId);
  if (!(await zip.append('invoices/invoices.json', json(invoices), at))) return false;
  for (const invoice of invoices) {
    const { pdf, fileName } = await ctx.deps.billing.invoicePdf(invoice.id, ownerId);
    if (!(await zip.append(`invoices/${fileName}`, pdf, at))) return false;
  }
  return true;
}
