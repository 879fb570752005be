import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COSTLY_RENDER_MS, MEMORY_ENTRY_MAX_BYTES, createPdfCache, isCostlyToMakeAgain, writeCacheFileSync } from './pdf-cache.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('PDF cache', () => {
  it('answers only bytes that match the hash it is asked for', async () => {
    const cache = createPdfCache(mkdtempSync(path.join(os.tmpdir(), 'formwork-pdf-cache-')));
    const pdf = Buffer.from('%PDF-1.7 a document');
    await cache.put('doc-1', pdf, sha(pdf));
    expect(Buffer.from((await cache.get('doc-1', sha(pdf)))!)).toEqual(pdf);
    expect(await cache.get('doc-1', sha(Buffer.from('another')))).toBeUndefined();
    // Kept in memory as well: a damaged file is only found once this process has forgotten it.
    writeFileSync(cache.fileOf('doc-1'), 'damaged');
    expect(Buffer.from((await cache.get('doc-1', sha(pdf)))!)).toEqual(pdf);
    expect(await createPdfCache(path.dirname(path.dirname(cache.fileOf('doc-1')))).get('doc-1', sha(pdf))).toBeUndefined();
    expect(await cache.get('missing', sha(pdf))).toBeUndefined();
    expect(() => cache.fileOf('../../etc/passwd')).toThrow();
  });

  it('is written whole from another thread and swept once old', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-pdf-cache-'));
    const cache = createPdfCache(dir);
    writeCacheFileSync(cache.fileOf('old-doc'), Buffer.from('old'));
    writeCacheFileSync(cache.fileOf('new-doc'), Buffer.from('new'));
    expect(readdirSync(path.dirname(cache.fileOf('old-doc'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const weekAgo = new Date(Date.now() - 8 * 24 * 60 * 60_000);
    utimesSync(cache.fileOf('old-doc'), weekAgo, weekAgo);
    expect(await cache.sweep(7 * 24 * 60 * 60_000)).toBe(1);
    expect(existsSync(cache.fileOf('old-doc'))).toBe(false);
    expect(existsSync(cache.fileOf('new-doc'))).toBe(true);
  });

  it('keeps a PDF just made in memory only, under its hash, until it is deleted', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-pdf-cache-'));
    const cache = createPdfCache(dir);
    const pdf = Buffer.from('%PDF-1.7 just made');
    cache.remember('doc-2', pdf, sha(pdf));
    const kept = (await cache.get('doc-2', sha(pdf)))!;
    expect(Buffer.from(kept)).toEqual(pdf);
    // A small Buffer is a view of Node's shared pool, which the cache does not keep alive.
    expect(pdf.buffer.byteLength).toBeGreaterThan(pdf.byteLength);
    expect(kept.buffer.byteLength).toBe(pdf.byteLength);
    expect(await cache.get('doc-2', sha(Buffer.from('another')))).toBeUndefined();
    expect(existsSync(cache.fileOf('doc-2'))).toBe(false);
    expect(await createPdfCache(dir).get('doc-2', sha(pdf))).toBeUndefined();
    await cache.delete('doc-2');
    expect(await cache.get('doc-2', sha(pdf))).toBeUndefined();

    const large = Buffer.alloc(MEMORY_ENTRY_MAX_BYTES + 1, 1);
    cache.remember('doc-3', large, sha(large));
    expect(await cache.get('doc-3', sha(large))).toBeUndefined();
  });

  it('holds at most 32 MB of PDFs in memory, the least recently used leaving first', async () => {
    const cache = createPdfCache(mkdtempSync(path.join(os.tmpdir(), 'formwork-pdf-cache-')));
    const pdfs = Array.from({ length: 130 }, (_, i) => Buffer.alloc(MEMORY_ENTRY_MAX_BYTES, i));
    pdfs.forEach((pdf, i) => cache.remember(`doc-${i}`, pdf, sha(pdf)));
    expect(await cache.get('doc-1', sha(pdfs[1]!))).toBeUndefined();
    expect(await cache.get('doc-129', sha(pdfs[129]!))).toBe(pdfs[129]);
  });

  it('keeps on disk what took long to render or is too large for memory', () => {
    const small = new Uint8Array(10_000);
    expect(isCostlyToMakeAgain(1.5, small)).toBe(false);
    expect(isCostlyToMakeAgain(COSTLY_RENDER_MS - 0.1, small)).toBe(false);
    expect(isCostlyToMakeAgain(COSTLY_RENDER_MS, small)).toBe(true);
    expect(isCostlyToMakeAgain(1.5, new Uint8Array(MEMORY_ENTRY_MAX_BYTES + 1))).toBe(true);
  });
});
