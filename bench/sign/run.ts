/**
 * `npm run bench:sign`: what completing a signature request costs, beside the plain render of the
 * same document, in one run.
 *
 *   tsx bench/sign/run.ts [--rounds 7] [--requests 200] [--database-url postgres://…/empty_db]
 *
 * 1. The pipeline, in this process, interleaved round by round: the plain render of a 1-page and a
 *    20-page invoice (what generating the document costs), against completing it: the render with
 *    the signatures, the certificate of completion, appending it, and the PAdES seal. Medians;
 *    each ratio is the median of the per-round ratios.
 * 2. The server as `npm start` runs it (the bundle, its own process, the embedded database), with
 *    an SMTP server on loopback: `--requests` 1-page requests are sent, then all signed at once,
 *    and the server completes and seals them in the background while this process samples
 *    GET /healthz every 20 ms. The same sampling with the server idle, just before, is the baseline.
 *    With `--database-url` (an empty PostgreSQL database) it runs a second time on PostgreSQL: the
 *    embedded database runs its queries on the server's own thread, PostgreSQL does not.
 *
 * Last line: {"complete_1p_ms":…,"plain_1p_ms":…,"ratio_1p":…,"complete_20p_ms":…,"plain_20p_ms":…,
 *             "ratio_20p":…,"requests":…,"all_completed_s":…,"healthz_idle_p99_ms":…,"healthz_p99_ms":…}
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONSENT } from '../../src/contract/signature-requests.ts';
import { ZRenderableFormat, type TRenderableFormat } from '../../src/contract/format-content.ts';
import type { TSigningInput } from '../../src/contract/signing.ts';
import { renderPdf } from '../../src/render/index.ts';
import { appendPdf, certificateRender, createSealCertificates, sealPdf } from '../../src/server/modules/signing/index.ts';
import { startSmtpStandIn } from '../../src/server/test/smtp-stand-in.ts';
import { buildServer } from '../../scripts/build-server.ts';
import { apiClient, median, sampleHealthz, startServer, verificationTokenFrom } from '../lib/harness.ts';
import { REFERENCE_FORMATS, invoiceData } from '../render/formats.ts';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, requests: { type: 'string', default: '200' }, 'database-url': { type: 'string' } },
});
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const log = (line = '') => process.stdout.write(`${line}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** The reference invoice with a signature and the signer's name under its table. */
function signedInvoice(): TRenderableFormat {
  const base = REFERENCE_FORMATS.invoice;
  return ZRenderableFormat.parse({
    ...base,
    content: {
      ...base.content,
      elements: [
        ...(base.content.elements ?? []),
        { id: 'sig', type: 'paragraph', content: '{{customer_signature}}' },
        { id: 'sig-name', type: 'paragraph', content: '{{customer_name}}' },
      ],
    },
    placeholders: [
      ...(base.placeholders ?? []),
      { name: 'customer_signature', type: 'signature', signer: 1 },
      { name: 'customer_name', type: 'signer_name', signer: 1 },
    ],
  });
}

/** Invoice data with `lines` lines (the reference's 200, repeated or cut). */
function invoiceWith(lines: number, i: number) {
  const data = invoiceData(i);
  const items = data.items as unknown[];
  return { ...data, items: Array.from({ length: lines }, (_, k) => items[k % items.length]) };
}

const pagesOf = (pdf: Uint8Array) =>
  (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page[^s]/g) ?? []
  ).length;

async function pipeline() {
  const format = signedInvoice();
  const certificates = await createSealCertificates('bench.formwork.test');
  const signing: TSigningInput = { signers: { 1: { name: 'Jane Doe', signedAt: new Date(), signature: { type: 'typed', text: 'Jane Doe' } } } };
  // 1 page: a few lines; 20 pages: as many lines as it takes.
  const sizes: [string, number][] = [['1p', 8]];
  let lines = 200;
  while (pagesOf(renderPdf({ format, data: invoiceWith(lines, 0), meta: { title: 'x', creationDate: new Date() } }).pdf) < 20) lines += 50;
  sizes.push(['20p', lines]);
  const figures: Record<string, { plain: number[]; complete: number[]; ratio: number[]; pages: number }> = {};
  for (const [name] of sizes) figures[name] = { plain: [], complete: [], ratio: [], pages: 0 };
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const [name, n] of sizes) {
      const data = invoiceWith(n, r);
      const meta = { title: `Invoice ${r}`, creationDate: new Date() };
      let started = performance.now();
      renderPdf({ format, data, meta });
      const plain = performance.now() - started;
      started = performance.now();
      const signed = renderPdf({ format, data, meta, signing }).pdf;
      const certificate = renderPdf(
        certificateRender({
          requestId: `bench-${r}`,
          documentName: meta.title,
          documentSha256: 'a'.repeat(64),
          sentAt: new Date(),
          completedAt: new Date(),
          senderName: 'Bench Owner',
          senderEmail: 'owner@bench.test',
          consent: CONSENT,
          signers: [
            {
              name: 'Jane Doe',
              email: 'jane@bench.test',
              role: 1,
              order: 1,
              viewedAt: new Date(),
              consentedAt: new Date(),
              signedAt: new Date(),
              ip: '127.0.0.1',
              userAgent: 'bench',
              signature: signing.signers[1]!.signature,
            },
          ],
          cc: [],
          events: ['created', 'sent', 'delivered', 'opened', 'consented', 'signed'].map((type) => ({ at: new Date(), type, who: 'Jane Doe', ip: '127.0.0.1' })),
          auditHead: 'b'.repeat(64),
        }),
      ).pdf;
      const sealed = await sealPdf(await appendPdf(signed, certificate), { certificates });
      const complete = performance.now() - started;
      if (r === 0) {
        figures[name]!.pages = pagesOf(renderPdf({ format, data, meta }).pdf);
        void sealed;
        continue; // warm-up
      }
      figures[name]!.plain.push(plain);
      figures[name]!.complete.push(complete);
      figures[name]!.ratio.push(complete / plain);
    }
  }
  return figures;
}

async function serverLoad(databaseUrl?: string) {
  await buildServer();
  const smtp = await startSmtpStandIn({ tls: false, accounts: { relay: 'relay-pass' } });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'formwork-bench-sign-'));
  const email = 'owner@bench.test';
  const { child, base } = await startServer({
    DATA_DIR: dataDir,
    ADMIN_EMAILS: email,
    IMAGE_FETCH_ALLOWED_IPS: '127.0.0.1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  try {
    const client = apiClient(base);
    const verificationToken = verificationTokenFrom(child);
    const me = (await (
      await client.call('POST', '/api/auth/sign-up', { firstName: 'Bench', lastName: 'Owner', email, password: 'benchmark password' })
    ).json()) as {
      id: string;
    };
    await client.call('POST', '/api/auth/verify-email', { token: await verificationToken });
    await client.call('PATCH', `/api/admin/users/${me.id}`, { subscriptionPlan: 'enterprise' });
    await client.call('PUT', '/api/admin/mail-settings', {
      host: smtp.host,
      port: smtp.port,
      secure: false,
      user: 'relay',
      password: 'relay-pass',
      fromAddress: 'documents@bench.test',
      fromName: 'Formwork',
    });
    const format = (await (await client.call('POST', '/api/formats', { name: 'Invoice', ...signedInvoice() })).json()) as { id: string };
    const links: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const document = (await (await client.call('POST', '/api/documents', { formatId: format.id, data: invoiceWith(8, i) })).json()) as { id: string };
      const request = (await (
        await client.call('POST', `/api/documents/${document.id}/signature-requests`, { signers: [{ name: `Signer ${i}`, email: `signer${i}@bench.test` }] })
      ).json()) as { id: string; signers: { signUrl: string }[] };
      links.push(request.signers[0]!.signUrl);
    }
    const idle = sampleHealthz(base);
    await new Promise((r) => setTimeout(r, 5_000));
    const idleSamples = await idle.stop();

    const busy = sampleHealthz(base);
    const started = performance.now();
    // Everyone signs at once, ten at a time, as a morning's signers would.
    for (let i = 0; i < links.length; i += 10) {
      await Promise.all(
        links.slice(i, i + 10).map(async (link) => {
          const token = link.slice(link.lastIndexOf('/') + 1);
          const answer = await fetch(`${base}/api/sign/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ consent: true, signature: { type: 'typed', text: 'Signed' } }),
          });
          if (!answer.ok) throw new Error(`sign: ${answer.status} ${await answer.text()}`);
        }),
      );
    }
    // Done when every signer has their sealed copy.
    while (smtp.messages.filter((m) => m.raw.toString('latin1').includes('Subject: Signed:')).length < REQUESTS) {
      if (performance.now() - started > 30 * 60_000) throw new Error('the requests did not all complete in 30 minutes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const allCompletedS = (performance.now() - started) / 1000;
    const busySamples = await busy.stop();
    return {
      allCompletedS,
      idle: { p50: quantile(idleSamples, 0.5), p99: quantile(idleSamples, 0.99) },
      busy: { p50: quantile(busySamples, 0.5), p99: quantile(busySamples, 0.99), max: busySamples.at(-1) ?? 0, n: busySamples.length },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

log(`bench:sign: ${ROUNDS} rounds, ${REQUESTS} requests, ${os.availableParallelism()} cores`);
const figures = await pipeline();
for (const [name, f] of Object.entries(figures)) {
  log(
    `${name} (a ${f.pages}-page document): plain render ${round(median(f.plain))} ms, complete and seal ${round(median(f.complete))} ms, ratio ${round(median(f.ratio), 2)}×`,
  );
}
const runs: [string, Awaited<ReturnType<typeof serverLoad>>][] = [['embedded database', await serverLoad()]];
if (args['database-url']) runs.push(['PostgreSQL', await serverLoad(args['database-url'])]);
for (const [database, load] of runs) {
  log(
    `${database}: ${REQUESTS} requests signed at once: all completed, sealed and emailed in ${round(load.allCompletedS)} s (${round(REQUESTS / load.allCompletedS)} a second)`,
  );
  log(`${database}: GET /healthz idle: p50 ${round(load.idle.p50)} ms, p99 ${round(load.idle.p99)} ms`);
  log(
    `${database}: GET /healthz while completing: p50 ${round(load.busy.p50)} ms, p99 ${round(load.busy.p99)} ms, max ${round(load.busy.max)} ms (${load.busy.n} samples)`,
  );
}
const [, load] = runs[0]!;
const postgres = runs[1]?.[1];
log(
  JSON.stringify({
    complete_1p_ms: round(median(figures['1p']!.complete)),
    plain_1p_ms: round(median(figures['1p']!.plain)),
    ratio_1p: round(median(figures['1p']!.ratio), 2),
    complete_20p_ms: round(median(figures['20p']!.complete)),
    plain_20p_ms: round(median(figures['20p']!.plain)),
    ratio_20p: round(median(figures['20p']!.ratio), 2),
    requests: REQUESTS,
    all_completed_s: round(load.allCompletedS),
    healthz_idle_p99_ms: round(load.idle.p99),
    healthz_p99_ms: round(load.busy.p99),
    ...(postgres
      ? { pg_all_completed_s: round(postgres.allCompletedS), pg_healthz_idle_p99_ms: round(postgres.idle.p99), pg_healthz_p99_ms: round(postgres.busy.p99) }
      : {}),
  }),
);
