import { describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TRenderableFormat } from '../../contract/format-content.ts';
import { assetKeysOf, createFormatShare, createThreadInputs, isSharedFormat, type TSharedFormat } from './shared-render-inputs.ts';

const formatSaying = (text: string): TRenderableFormat =>
  ZRenderableFormat.parse({ content: { elements: [{ id: 'p', type: 'paragraph', content: text }] }, placeholders: [] });
const paragraphOf = (format: TRenderableFormat) => (format.content.elements[0] as { content: string }).content;

const sent = ({ sent }: { sent: TRenderableFormat | TSharedFormat }): TSharedFormat => {
  if (!isSharedFormat(sent)) throw new Error('expected the shared form');
  return sent;
};

const sharedBytes = (...values: number[]) => {
  const bytes = new Uint8Array(new SharedArrayBuffer(values.length));
  bytes.set(values);
  return bytes;
};

describe('the event loop’s formats', () => {
  it('are serialized once per identity, and again under a new one', () => {
    const share = createFormatShare();
    const first = sent(share(formatSaying('one'), 'owner', 'v1'));
    expect(sent(share(formatSaying('one'), 'owner', 'v1')).serialized).toBe(first.serialized);
    const second = sent(share(formatSaying('two'), 'owner', 'v2'));
    expect(second.serialized).not.toBe(first.serialized);
    expect(paragraphOf(createThreadInputs().formatOf(second))).toBe('two');
  });

  it('without an identity, are known again by their content, and changed content is another format', () => {
    const share = createFormatShare();
    const first = share(formatSaying('one'), 'owner');
    const again = share(formatSaying('one'), 'owner');
    expect(again.key).toBe(first.key);
    expect(sent(again).serialized).toBe(sent(first).serialized);
    const changed = share(formatSaying('one!'), 'owner');
    expect(changed.key).not.toBe(first.key);
    expect(paragraphOf(createThreadInputs().formatOf(changed.sent))).toBe('one!');
    expect(share(formatSaying('one'), 'another owner').key).not.toBe(first.key);
    expect(share(formatSaying('one'), 'owner', first.key).key).not.toBe(first.key);
  });

  it('are bounded: past the limit the oldest is serialized again, and a format too large is sent whole', () => {
    const share = createFormatShare({ maxEntries: 2, maxSize: 64 * 1024 });
    const first = sent(share(formatSaying('a'), 'owner', 'a'));
    share(formatSaying('b'), 'owner', 'b');
    share(formatSaying('c'), 'owner');
    expect(sent(share(formatSaying('a'), 'owner', 'a')).serialized).not.toBe(first.serialized);
    const large = formatSaying('x'.repeat(9 * 1024));
    expect(share(large, 'owner', 'large').sent).toBe(large);
    expect(share(large, 'owner')).toEqual({ sent: large, key: undefined });
  });
});

describe('a render thread’s formats', () => {
  it('are deserialized on the first task with a key and reused after', () => {
    const thread = createThreadInputs();
    const kept = sent(createFormatShare()(formatSaying('kept'), 'owner', 'k'));
    const first = thread.formatOf(kept);
    expect(paragraphOf(first)).toBe('kept');
    expect(thread.formatOf({ ...kept })).toBe(first);
    const plain = formatSaying('plain');
    expect(thread.formatOf(plain)).toBe(plain);
  });

  it('are bounded by count and by size', () => {
    const share = createFormatShare();
    const thread = createThreadInputs({ formats: { maxEntries: 3, maxSize: 1024 * 1024 }, assets: { maxEntries: 3, maxSize: 1024 } });
    const firstSent = sent(share(formatSaying('f0'), 'owner', 'f0'));
    const first = thread.formatOf(firstSent);
    for (let i = 1; i <= 3; i++) thread.formatOf(sent(share(formatSaying(`f${i}`), 'owner', `f${i}`)));
    expect(thread.formats.entries).toBe(3);
    expect(thread.formats.get(firstSent.key)).toBeUndefined();
    const again = thread.formatOf(firstSent);
    expect(again).not.toBe(first);
    expect(paragraphOf(again)).toBe('f0');

    const bySize = createThreadInputs({ formats: { maxEntries: 100, maxSize: firstSent.serialized.byteLength * 2 }, assets: { maxEntries: 3, maxSize: 1024 } });
    for (let i = 0; i < 4; i++) bySize.formatOf(sent(share(formatSaying(`f${i}`), 'owner', `f${i}`)));
    expect(bySize.formats.entries).toBe(2);
    expect(bySize.formats.size).toBeLessThanOrEqual(firstSent.serialized.byteLength * 2);
  });
});

describe('images', () => {
  it('get a number only when they are views of shared memory, the same for the same view', () => {
    const image = sharedBytes(1, 2, 3);
    const keys = assetKeysOf({ '/a': image, '/b': new Uint8Array([1, 2, 3]) });
    expect(Object.keys(keys ?? {})).toEqual(['/a']);
    expect(assetKeysOf({ '/elsewhere': image })?.['/elsewhere']).toBe(keys?.['/a']);
    expect(assetKeysOf({ '/b': new Uint8Array([1]) })).toBeUndefined();
  });

  it('reach the renderer as the view a thread first saw, and an image replaced under the same address is the new one', () => {
    const thread = createThreadInputs();
    const before = sharedBytes(1, 2, 3);
    const sent = { '/api/assets/logo': before };
    const first = thread.assetsOf(sent, assetKeysOf(sent));
    // What the thread gets from the next task is a new view of the same memory.
    const again = { '/api/assets/logo': new Uint8Array(before.buffer) };
    expect(thread.assetsOf(again, assetKeysOf(sent))['/api/assets/logo']).toBe(first['/api/assets/logo']);

    const replaced = { '/api/assets/logo': sharedBytes(9, 9) };
    const resolved = thread.assetsOf(replaced, assetKeysOf(replaced));
    expect([...resolved['/api/assets/logo']!]).toEqual([9, 9]);
  });

  it('are bounded by count and by size per thread', () => {
    const thread = createThreadInputs({ formats: { maxEntries: 3, maxSize: 1024 }, assets: { maxEntries: 2, maxSize: 5 } });
    const images = [sharedBytes(1), sharedBytes(2), sharedBytes(3)];
    for (const image of images) thread.assetsOf({ '/x': image }, assetKeysOf({ '/x': image }));
    expect(thread.assets.entries).toBe(2);
    expect(thread.assets.get(assetKeysOf({ '/x': images[0]! })!['/x']!)).toBeUndefined();
    const big = sharedBytes(1, 2, 3, 4, 5, 6);
    expect(thread.assetsOf({ '/big': big }, assetKeysOf({ '/big': big }))['/big']).toBe(big);
    expect(thread.assets.size).toBeLessThanOrEqual(5);
  });
});
