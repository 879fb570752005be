import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPdfCache, writeCacheFileSync } from './pdf-cache.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('PDF cache', () => {
  it('answers only bytes that match the hash it is asked for', async () => {
    const cache = createPdfCache(mkdtempSync(path.join(os.tmpdir(), 'formwork-pdf-cache-')));
    const pdf = Buffer.from('%PDF-1.7 a document');
    await cache.put('doc-1', pdf);
    expect(Buffer.from((await cache.get('doc-1', sha(pdf)))!)).toEqual(pdf);
    expect(await cache.get('doc-1', sha(Buffer.from('another')))).toBeUndefined();
    writeFileSync(cache.fileOf('doc-1'), 'damaged');
    expect(await cache.get('doc-1', sha(pdf))).toBeUndefined();
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
});
