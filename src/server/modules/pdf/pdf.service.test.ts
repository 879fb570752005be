import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TRenderableFormat } from '../../../contract/format-content.ts';
import { makeAlphaPng, makeOpaquePng, pdfText } from '../../../render/testdata/pdf-tools.ts';
import { createPdfCache } from '../../jobs/pdf-cache.ts';
import { createRenderPool, type TRenderPool } from '../../jobs/render-pool.ts';
import type { TRenderBatchTask } from '../../jobs/render-worker.ts';
import type { TAssetsService } from '../assets/index.ts';
import { createPdfService, sha256Hex, type TPdfService } from './pdf.service.ts';

const LOGO = '/api/assets/logo';

const letter = (opening: string): TRenderableFormat =>
  ZRenderableFormat.parse({
    content: {
      elements: [
        { id: 'p', type: 'paragraph', content: `${opening} {{name}}, welcome aboard.` },
        { id: 'logo', type: 'image', src: LOGO, width: 48, height: 48 },
      ],
    },
    placeholders: [{ name: 'name', type: 'text', required: true }],
  });

/** The bytes in shared memory, as the assets service keeps them for renders. */
const shared = (bytes: Uint8Array) => {
  const view = new Uint8Array(new SharedArrayBuffer(bytes.length));
  view.set(bytes);
  return view;
};

describe('the PDF service', () => {
  let pool: TRenderPool;
  let dir: string;
  let pdf: TPdfService;
  let logo: Uint8Array = shared(makeAlphaPng());
  const creationDate = new Date(Date.UTC(2026, 0, 1));
  const request = (format: TRenderableFormat, extra: { ownerId?: string; formatKey?: string } = {}) => ({
    ownerId: 'owner-1',
    format,
    data: { name: 'Jane Doe' },
    title: 'Offer',
    creationDate,
    ...extra,
  });
  /** What the thread prints from a format and an unshared copy of the image sent whole, past every cache. */
  const fresh = async (format: TRenderableFormat, image: Uint8Array) => {
    const item = { data: { name: 'Jane Doe' }, title: 'Offer', creationDate: creationDate.getTime() };
    const result = await pool.render({ format: structuredClone(format), assets: { [LOGO]: new Uint8Array(image) }, items: [item], returnBytes: true });
    return { sha256: result.sha256[0]! };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pdf-service-'));
    // One thread, kept alive, so every render below meets what the previous ones left in it.
    const made = createRenderPool({ threads: 1, minThreads: 1, idleTimeoutMs: 60_000 });
    pool = await made;
    const assets = { forRender: async () => ({ [LOGO]: logo }) } as unknown as TAssetsService;
    pdf = createPdfService({ assets, pool: () => made, threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a format it keeps on the thread byte for byte as one sent whole, and hands the bytes over', async () => {
    const format = letter('Dear');
    const whole = await fresh(format, logo);
    const first = await pdf.render(request(structuredClone(format), { formatKey: 'snapshot-1' }));
    const kept = await pdf.render(request(structuredClone(format), { formatKey: 'snapshot-1' }));
    expect(first.sha256).toBe(whole.sha256);
    expect(kept.sha256).toBe(whole.sha256);
    expect(sha256Hex(kept.pdf)).toBe(kept.sha256);
    expect(kept.pdf.byteLength).toBe(kept.pdf.buffer.byteLength);
    const cache = createPdfCache(path.join(dir, 'cache'));
    expect((await pdf.renderToCache(request(structuredClone(format), { formatKey: 'snapshot-1' }), cache, 'document-1')).sha256).toBe(whole.sha256);
    expect(sha256Hex((await cache.get('document-1', whole.sha256))!)).toBe(whole.sha256);
  });

  it('has the render thread write a cache file only for a render it found costly, and hand every PDF over', async () => {
    const item = { data: { name: 'Jane Doe' }, title: 'Offer', creationDate: creationDate.getTime() };
    const made = async (costlyRenderMs: number) => {
      const file = path.join(dir, `costly-after-${costlyRenderMs}.pdf`);
      const task = { format: structuredClone(letter('Dear')), assets: { [LOGO]: logo }, items: [item], returnBytes: true, cacheFiles: [file], costlyRenderMs };
      const result = await pool.render(task);
      expect(sha256Hex(result.bytes![0]!)).toBe(result.sha256[0]);
      return { file, sha256: result.sha256[0]! };
    };
    expect(existsSync((await made(Infinity)).file)).toBe(false);
    const costly = await made(0);
    expect(sha256Hex(readFileSync(costly.file))).toBe(costly.sha256);
  });

  it('knows a format without a key by its content: the same content prints the same bytes, changed content the new text', async () => {
    const first = await pdf.render(request(letter('Dear')));
    const again = await pdf.render(request(letter('Dear')));
    expect(again.sha256).toBe(first.sha256);
    expect(first.sha256).toBe((await fresh(letter('Dear'), logo)).sha256);
    const changed = await pdf.render(request(letter('Dearest')));
    expect(pdfText(changed.pdf)).toContain('Dearest Jane Doe');
    expect(changed.sha256).toBe((await fresh(letter('Dearest'), logo)).sha256);
  });

  it('prints the new content under a new key, the old under the old', async () => {
    const v1 = await pdf.render(request(letter('Hello'), { formatKey: 'format-7 v1' }));
    const v2 = await pdf.render(request(letter('Goodbye'), { formatKey: 'format-7 v2' }));
    expect(pdfText(v1.pdf)).toContain('Hello Jane Doe');
    expect(pdfText(v2.pdf)).toContain('Goodbye Jane Doe');
    expect(v2.sha256).toBe((await fresh(letter('Goodbye'), logo)).sha256);
    expect((await pdf.render(request(letter('Hello'), { formatKey: 'format-7 v1' }))).sha256).toBe(v1.sha256);
  });

  it('keeps each owner’s formats apart under the same key', async () => {
    await pdf.render(request(letter('Hi'), { ownerId: 'owner-a', formatKey: 'same' }));
    const other = await pdf.render(request(letter('Greetings'), { ownerId: 'owner-b', formatKey: 'same' }));
    expect(pdfText(other.pdf)).toContain('Greetings Jane Doe');
  });

  it('reads a format by its key alone: content changed under a known key is not looked at', async () => {
    // Why a key must change with the content (a snapshot's id does): this is what it would print.
    await pdf.render(request(letter('Original'), { formatKey: 'reused' }));
    const stale = await pdf.render(request(letter('Edited'), { formatKey: 'reused' }));
    expect(pdfText(stale.pdf)).toContain('Original Jane Doe');
  });

  it('measures a new key’s format afresh before rendering it', async () => {
    const once = ZRenderableFormat.parse({ content: { elements: [{ id: 'p', type: 'paragraph', content: '{{name}}' }] }, placeholders: [] });
    const thrice = ZRenderableFormat.parse({
      content: { elements: [{ id: 'p', type: 'paragraph', content: '{{name}} {{name}} {{name}}' }] },
      placeholders: [],
    });
    await pdf.render({ ...request(once, { formatKey: 'measured v1' }) });
    const tooLarge = pdf.render({ ...request(thrice, { formatKey: 'measured v2' }), data: { name: 'x'.repeat(700_000) } });
    await expect(tooLarge).rejects.toMatchObject({ code: 'document_too_large' });
  });

  it('makes one owner’s waiting documents of one format and image in shared tasks, each with its own bytes, kept in the cache', async () => {
    const tasks: string[][] = [];
    const noting = Promise.resolve({
      ...pool,
      render: (task: TRenderBatchTask, signal?: AbortSignal) => {
        tasks.push(task.items.map((item) => String(item.data.name)));
        return pool.render(task, signal);
      },
    });
    // Groups as large as they may be however slowly a shared machine renders.
    const grouping = createPdfService({
      assets: { forRender: async () => ({ [LOGO]: logo }) } as unknown as TAssetsService,
      pool: () => noting,
      threads: 1,
      groupMs: 60_000,
    });
    const format = letter('Dear');
    const named = (name: string, extra: { ownerId?: string; formatKey?: string } = {}) => ({
      ...request(format, { formatKey: 'grouped', ...extra }),
      data: { name },
    });
    await grouping.render(named('Warm'));
    tasks.length = 0;
    const cache = createPdfCache(path.join(dir, 'grouped-cache'));
    const names = Array.from({ length: 6 }, (_, i) => `Person ${i}`);
    const made = await Promise.all([
      ...names.map((name) => grouping.render(named(name))),
      grouping.render(named('Other owner', { ownerId: 'owner-2' })),
      grouping.render(named('Other format', { formatKey: 'not grouped' })),
      ...names.map((name, i) => grouping.renderToCache(named(`${name} kept`), cache, `kept-${i}`)),
    ]);
    for (const [i, name] of [...names, 'Other owner', 'Other format', ...names.map((name) => `${name} kept`)].entries()) {
      const { sha256 } = made[i]!;
      const alone = await pool.render({
        format,
        assets: { [LOGO]: logo },
        items: [{ data: { name }, title: 'Offer', creationDate: creationDate.getTime() }],
        returnBytes: true,
      });
      expect(sha256).toBe(alone.sha256[0]);
      if ('pdf' in made[i]!) expect(pdfText(made[i]!.pdf)).toContain(`Dear ${name}, welcome aboard.`);
    }
    for (const i of names.keys()) expect(sha256Hex((await cache.get(`kept-${i}`, made[8 + i]!.sha256))!)).toBe(made[8 + i]!.sha256);
    expect(tasks.some((task) => task.length > 1)).toBe(true);
    expect(tasks).toContainEqual(['Other owner']);
    expect(tasks).toContainEqual(['Other format']);
  });

  it('prints an image replaced under the same address, never the one it had', async () => {
    const format = letter('Dear');
    const first = await pdf.render(request(format, { formatKey: 'with-logo' }));
    logo = shared(makeOpaquePng(48, 48));
    const replaced = await pdf.render(request(format, { formatKey: 'with-logo' }));
    expect(replaced.sha256).not.toBe(first.sha256);
    expect(replaced.sha256).toBe((await fresh(format, logo)).sha256);
  });
});
