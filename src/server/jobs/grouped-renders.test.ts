import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXPANDED_TEXT_CHARS } from '../../contract/expansion.ts';
import { ZRenderableFormat, type TRenderableFormat } from '../../contract/format-content.ts';
import { pdfText } from '../../render/testdata/pdf-tools.ts';
import { createGroupedRenders, MAX_RENDERS_A_TASK, RenderOverBudgetError, type TGroupedRender } from './grouped-renders.ts';
import { createRenderPool, type TRenderPool } from './render-pool.ts';
import type { TRenderBatchTask } from './render-worker.ts';

const letter: TRenderableFormat = ZRenderableFormat.parse({
  content: { elements: [{ id: 'p', type: 'paragraph', content: 'Dear {{name}}, welcome aboard.' }] },
  placeholders: [{ name: 'name', type: 'text', required: true }],
});
const creationDate = Date.UTC(2026, 0, 1);
/** Groups as large as they may be however slowly a shared machine renders (GROUP_MS is tested below). */
const LOOSE_GROUP_MS = 60_000;
const request = (name: string, group: string | undefined = 'letter'): TGroupedRender => ({
  group,
  format: letter,
  assets: {},
  item: { data: { name }, title: 'Offer', creationDate },
});
/** Ten-kilobyte notes printed near the most times a document may (expansion.ts). */
const tenKb = 'lorem ipsum dolor sit amet '.repeat(370).slice(0, 10_000);
const notes: TRenderableFormat = ZRenderableFormat.parse({
  content: {
    elements: Array.from({ length: Math.floor(MAX_EXPANDED_TEXT_CHARS / tenKb.length) - 2 }, (_, i) => ({
      id: String(i),
      type: 'paragraph',
      content: 'Note: {{notes}}',
    })),
  },
  placeholders: [{ name: 'notes', type: 'textarea', required: false }],
});
const notesRequest = (text: string): TGroupedRender => ({
  group: 'notes',
  format: notes,
  assets: {},
  item: { data: { notes: text }, title: 'Notes', creationDate },
});

describe('grouped renders', () => {
  let pool: TRenderPool;
  /** How many documents each task sent to the thread carried, in order. */
  const taskSizes: number[] = [];
  /** The real pool, counting what it is sent. */
  const counted = (): Promise<TRenderPool> =>
    Promise.resolve({
      ...pool,
      render: (task: TRenderBatchTask, signal?: AbortSignal) => {
        taskSizes.push(task.items.length);
        return pool.render(task, signal);
      },
    });
  /** What a document prints when it is rendered alone, straight on the pool. */
  const alone = async (name: string) => {
    const result = await pool.render({ format: letter, assets: {}, items: [{ data: { name }, title: 'Offer', creationDate }], returnBytes: true });
    return result.sha256[0]!;
  };

  beforeAll(async () => {
    pool = await createRenderPool({ threads: 1, minThreads: 1, idleTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('sends a document alone at once when a thread is free', async () => {
    const renders = createGroupedRenders({ pool: counted, threads: 1, budgetMs: 60_000, maxWaitMs: 60_000, groupMs: LOOSE_GROUP_MS });
    taskSizes.length = 0;
    const first = await renders.render(request('Ada'));
    const second = await renders.render(request('Grace'));
    expect(taskSizes).toEqual([1, 1]);
    expect(first.sha256).toBe(await alone('Ada'));
    expect(pdfText(second.pdf)).toContain('Dear Grace, welcome aboard.');
  });

  it('sends documents of one format that wait for the thread together, each with its own bytes', async () => {
    const renders = createGroupedRenders({ pool: counted, threads: 1, budgetMs: 60_000, maxWaitMs: 60_000, groupMs: LOOSE_GROUP_MS });
    // The first is measured alone; the ones that wait behind it go together.
    await renders.render(request('Warm'));
    taskSizes.length = 0;
    const names = Array.from({ length: 3 * MAX_RENDERS_A_TASK }, (_, i) => `Person ${i}`);
    const results = await Promise.all(names.map((name) => renders.render(request(name))));
    expect(taskSizes[0]).toBe(1);
    expect(Math.max(...taskSizes)).toBeGreaterThan(1);
    expect(Math.max(...taskSizes)).toBeLessThanOrEqual(MAX_RENDERS_A_TASK);
    expect(taskSizes.reduce((sum, size) => sum + size, 0)).toBe(names.length);
    for (const [i, name] of names.entries()) expect(results[i]!.sha256).toBe(await alone(name));
  });

  it('never sends documents of different groups, or of none, in one task', async () => {
    const renders = createGroupedRenders({ pool: counted, threads: 1, budgetMs: 60_000, maxWaitMs: 60_000, groupMs: LOOSE_GROUP_MS });
    await Promise.all([renders.render(request('Warm a', 'a')), renders.render(request('Warm b', 'b'))]);
    taskSizes.length = 0;
    const groups = ['a', 'b', 'none', 'a', 'b', 'none', 'a', 'b', 'none'];
    const results = await Promise.all(groups.map((group, i) => renders.render({ ...request(`Person ${i}`), group: group === 'none' ? undefined : group })));
    // Only the two waiting of each group can go together: at most three tasks of two.
    expect(taskSizes.reduce((sum, size) => sum + size, 0)).toBe(groups.length);
    expect(taskSizes.filter((size) => size > 1).length).toBeLessThanOrEqual(2);
    for (const [i, result] of results.entries()) expect(pdfText(result.pdf)).toContain(`Dear Person ${i},`);
  });

  it('stops only the document that runs past its budget; the others of its task are made alone', async () => {
    const renders = createGroupedRenders({ pool: counted, threads: 1, budgetMs: 150, maxWaitMs: 60_000, groupMs: LOOSE_GROUP_MS });
    await renders.render(notesRequest('warm'));
    taskSizes.length = 0;
    // The thread is busy with the first; the three after it wait and go together, the long one among them.
    // The long one prints 5 MB of text, seconds of work; the short ones take a few milliseconds.
    const texts = ['busy', 'before', tenKb.repeat(5), 'after'];
    const outcomes = await Promise.allSettled(texts.map((text) => renders.render(notesRequest(text))));
    expect(taskSizes.slice(0, 2)).toEqual([1, 3]);
    expect(outcomes[2]).toMatchObject({ status: 'rejected', reason: expect.any(RenderOverBudgetError) });
    for (const i of [0, 1, 3]) {
      const outcome = outcomes[i]!;
      expect(outcome.status).toBe('fulfilled');
      if (outcome.status === 'fulfilled') expect(pdfText(outcome.value.pdf)).toContain(`Note: ${texts[i]}`);
    }
    // Made again alone, after the thread that was stopped.
    expect(taskSizes.slice(2)).toEqual([1, 1]);
  });
});
