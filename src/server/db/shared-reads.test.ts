import { describe, expect, it } from 'vitest';
import { sharedReads } from './shared-reads.ts';

/** A read whose answers the test releases one at a time, recording what each saw when it began. */
function controlledRead() {
  let value = 0;
  const began: { key: string; saw: number; finish: (error?: Error) => void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => {
      const saw = value;
      began.push({ key, saw, finish: (error) => (error ? reject(error) : resolve(`${key}:${saw}`)) });
    });
  return {
    read,
    began,
    set: (v: number) => (value = v),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('sharedReads', () => {
  it('serves every caller that arrived during a read with one next read, begun after they asked', async () => {
    const source = controlledRead();
    const shared = sharedReads(source.read);
    const first = shared('a');
    await settle();
    expect(source.began).toHaveLength(1);

    // The value changes after the first read began: callers from now on must see it.
    source.set(1);
    const later = [shared('a'), shared('a'), shared('a')];
    await settle();
    expect(source.began).toHaveLength(1);

    source.began[0]!.finish();
    expect(await first).toBe('a:0');
    await settle();
    expect(source.began).toHaveLength(2);
    source.began[1]!.finish();
    expect(await Promise.all(later)).toEqual(['a:1', 'a:1', 'a:1']);
  });

  it('reads again for a caller after the reads have ended', async () => {
    const source = controlledRead();
    const shared = sharedReads(source.read);
    const first = shared('a');
    source.began[0]!.finish();
    await first;
    source.set(2);
    const second = shared('a');
    await settle();
    expect(source.began).toHaveLength(2);
    source.began[1]!.finish();
    expect(await second).toBe('a:2');
  });

  it('never shares between keys', async () => {
    const source = controlledRead();
    const shared = sharedReads(source.read);
    const answers = Promise.all([shared('a'), shared('b')]);
    await settle();
    expect(source.began.map((b) => b.key)).toEqual(['a', 'b']);
    for (const b of source.began) b.finish();
    expect(await answers).toEqual(['a:0', 'b:0']);
  });

  it('fails only the callers of a read that failed, and still runs the next one', async () => {
    const source = controlledRead();
    const shared = sharedReads(source.read);
    const failing = shared('a');
    const waiting = shared('a');
    await settle();
    source.began[0]!.finish(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await settle();
    expect(source.began).toHaveLength(2);
    source.began[1]!.finish();
    expect(await waiting).toBe('a:0');
  });

  it('turns a read that throws at once into a failed answer', async () => {
    const shared = sharedReads((key: string): Promise<string> => {
      throw new Error(`no ${key}`);
    });
    await expect(shared('a')).rejects.toThrow('no a');
    await expect(shared('a')).rejects.toThrow('no a');
  });
});
