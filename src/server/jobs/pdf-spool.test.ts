import { mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createPdfSpool, openSpoolPack } from './pdf-spool.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'formwork-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pdf = (id: string, size: number) => Buffer.alloc(size, id);

async function spoolWithTwoPacks(jobId: string) {
  const spool = createPdfSpool(dir);
  const first = openSpoolPack(await spool.prepare(jobId, 'p1'));
  for (const [id, size] of [
    ['a', 10],
    ['b', 3],
    ['c', 7],
  ] as const)
    first.add(id, pdf(id, size));
  first.finish();
  const second = openSpoolPack(await spool.prepare(jobId, 'p2'));
  for (const [id, size] of [
    ['d', 5],
    ['e', 1],
  ] as const)
    second.add(id, pdf(id, size));
  second.finish();
  return spool;
}

it('returns each document’s own bytes in the order asked, across packs, with gaps for unknown ones', async () => {
  const spool = await spoolWithTwoPacks('job-1');
  const reader = await spool.reader('job-1');
  const got = await reader.getMany(['a', 'b', 'c', 'zz', 'd', 'e', 'b', 'a']);
  expect(got.map((b) => b?.toString('latin1'))).toEqual(['aaaaaaaaaa', 'bbb', 'ccccccc', undefined, 'ddddd', 'e', 'bbb', 'aaaaaaaaaa']);
  expect(await reader.getMany(['e', 'd', 'c'])).toEqual([pdf('e', 1), pdf('d', 5), pdf('c', 7)]);
  expect(await reader.getMany([])).toEqual([]);
  await reader.close();
});

it('gives nothing for documents a damaged pack no longer holds, and the rest as written', async () => {
  const spool = await spoolWithTwoPacks('job-2');
  truncateSync(path.join(dir, 'job-2', 'p1.pdfs'), 12);
  const reader = await spool.reader('job-2');
  expect((await reader.getMany(['a', 'b', 'c', 'd'])).map((b) => b?.toString('latin1'))).toEqual(['aaaaaaaaaa', undefined, undefined, 'ddddd']);
  await reader.close();
});

it('an abandoned pack leaves nothing behind, and a job without a spool has no documents', async () => {
  const spool = createPdfSpool(dir);
  const pack = openSpoolPack(await spool.prepare('job-3', 'p1'));
  pack.add('a', pdf('a', 4));
  pack.abandon();
  expect(await (await spool.reader('job-3')).getMany(['a'])).toEqual([undefined]);
  expect(await (await spool.reader('job-none')).getMany(['a'])).toEqual([undefined]);
});

/** Open file descriptors of this process that point into the folder. */
function openFilesUnder(folder: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(folder);
    } catch {
      return false;
    }
  }).length;
}

it('closed while a read is on its way (the client left), it leaves no file open', async () => {
  const spool = await spoolWithTwoPacks('job-4');
  for (const ids of [['a', 'd'], ['d', 'a', 'e'], ['b']]) {
    const reader = await spool.reader('job-4');
    const pending = reader.getMany(ids);
    await reader.close();
    await pending;
    expect(await reader.getMany(['a'])).toEqual([undefined]);
    expect(openFilesUnder(path.join(dir, 'job-4'))).toBe(0);
  }
});
