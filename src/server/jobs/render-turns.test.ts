import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRenderableFormat, type TRenderableFormat } from '../../contract/format-content.ts';
import { pdfText } from '../../render/testdata/pdf-tools.ts';
import { createRenderPool, type TRenderPool } from './render-pool.ts';
import {
  createRenderTurns,
  MAX_RENDERS_A_TASK,
  RenderOverBudgetError,
  RenderWaitedTooLongError,
  TooManyWaitingError,
  type TGroupedRender,
} from './render-turns.ts';
import type { TRenderBatchTask } from './render-worker.ts';

const creationDate = Date.UTC(2026, 0, 1);
const letter = (opening: string): TRenderableFormat =>
  ZRenderableFormat.parse({
    content: { elements: [{ id: 'p', type: 'paragraph', content: `${opening} {{name}}, welcome aboard.` }] },
    placeholders: [{ name: 'name', type: 'text', required: true }],
  });
const formats: Record<string, TRenderableFormat> = { a: letter('Dear'), b: letter('Hello'), none: letter('Hi') };
/** A render whose format prints its group's own opening, so a task that mixed groups would show. */
const request = (name: string, group = 'a'): TGroupedRender => ({
  group: group === 'none' ? undefined : group,
  format: formats[group]!,
  assets: {},
  item: { data: { name }, title: 'Offer', creationDate },
});
/**
 * A format whose document, filled with ten-kilobyte notes of Arabic, reaches the renderer's page
 * limit: many seconds of shaping, where filled with a word it takes milliseconds.
 */
const NOTE_NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const notes = ZRenderableFormat.parse({
  content: {
    elements: Array.from({ length: 100 }, (_, i) => ({
      id: String(i),
      type: 'paragraph',
      content: `Note: ${NOTE_NAMES.map((name) => `{{${name}}}`).join(' ')}`,
    })),
  },
  placeholders: NOTE_NAMES.map((name) => ({ name, type: 'textarea', required: false })),
});
const notesRequest = (text: string): TGroupedRender => ({
  group: 'notes',
  format: notes,
  assets: {},
  item: { data: Object.fromEntries(NOTE_NAMES.map((name) => [name, text])), title: 'Notes', creationDate },
});
const LONG_NOTE = 'مرحبا بالعالم '.repeat(720).slice(0, 10_000);
/** Groups as large as they may be however slowly a shared machine renders. */
const LOOSE = { groupMs: 60_000, taskShareMs: 60_000 };
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('render turns', () => {
  let pool: TRenderPool;
  /** The names (or notes) each task sent to the thread carried, in order. */
  const tasks: string[][] = [];
  /** The real pool, noting what it is sent, signal included. */
  const noted = (): Promise<TRenderPool> =>
    Promise.resolve({
      ...pool,
      render: (task: TRenderBatchTask, signal?: AbortSignal) => {
        tasks.push(task.items.map((item) => String(item.data.name ?? item.data.a).slice(0, 20)));
        return pool.render(task, signal);
      },
    });
  const turnsWith = (options: Partial<Parameters<typeof createRenderTurns>[0]> = {}) =>
    createRenderTurns({ pool: noted, threads: 1, budgetMs: 60_000, maxWaitMs: 60_000, maxWaitingPerOwner: 1_000, ...LOOSE, ...options });
  /** What a document prints when it is rendered alone, straight on the pool. */
  const alone = async (name: string, group = 'a') => {
    const result = await pool.render({ format: formats[group]!, assets: {}, items: [{ data: { name }, title: 'Offer', creationDate }], returnBytes: true });
    return result.sha256[0]!;
  };

  beforeAll(async () => {
    pool = await createRenderPool({ threads: 1, minThreads: 1, idleTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('sends a document alone at once when a thread is free', async () => {
    const turns = turnsWith();
    tasks.length = 0;
    const first = await turns.render('ada', request('Ada'));
    const second = await turns.render('ada', request('Grace'));
    expect(tasks).toEqual([['Ada'], ['Grace']]);
    expect(first.sha256).toBe(await alone('Ada'));
    expect(pdfText(second.pdf)).toContain('Dear Grace, welcome aboard.');
  });

  it('sends one user’s waiting documents of one format together, each with its own bytes', async () => {
    const turns = turnsWith();
    // The first is measured alone; the ones that wait behind it go together.
    await turns.render('ada', request('Warm'));
    tasks.length = 0;
    const names = Array.from({ length: 3 * MAX_RENDERS_A_TASK }, (_, i) => `Person ${i}`);
    const results = await Promise.all(names.map((name) => turns.render('ada', request(name))));
    expect(tasks[0]).toEqual(['Person 0']);
    expect(Math.max(...tasks.map((task) => task.length))).toBe(MAX_RENDERS_A_TASK);
    expect(tasks.flat()).toEqual(names);
    for (const [i, name] of names.entries()) expect(results[i]!.sha256).toBe(await alone(name));
  });

  it('never puts documents of different formats, of none, or of different users in one task', async () => {
    const turns = turnsWith();
    await Promise.all([turns.render('ada', request('Warm a', 'a')), turns.render('ada', request('Warm b', 'b'))]);
    tasks.length = 0;
    const sent = [
      ...['a', 'b', 'none', 'a', 'b', 'none', 'a', 'b', 'none'].map((group, i) => ({ owner: 'ada', group, name: `Ada ${i} ${group}` })),
      ...['a', 'a', 'a'].map((group, i) => ({ owner: 'bob', group, name: `Bob ${i} ${group}` })),
    ];
    const results = await Promise.all(sent.map(({ owner, group, name }) => turns.render(owner, request(name, group))));
    for (const [i, { group, name }] of sent.entries()) expect(results[i]!.sha256).toBe(await alone(name, group));
    const ofTask = (task: string[]) =>
      new Set(
        task.map((name) =>
          name
            .split(' ')
            .filter((_, i) => i !== 1)
            .join(' '),
        ),
      );
    for (const task of tasks) expect(ofTask(task).size).toBe(1);
    for (const task of tasks) if (task.some((name) => name.endsWith('none'))) expect(task).toHaveLength(1);
    expect(tasks.flat().sort()).toEqual(sent.map(({ name }) => name).sort());
    expect(tasks.some((task) => task.length > 1)).toBe(true);
  });

  it('serves users in rotation: another user’s document goes in the next task, however many the first has waiting', async () => {
    const turns = turnsWith();
    await turns.render('flood', request('Warm'));
    tasks.length = 0;
    const flood = Array.from({ length: 40 }, (_, i) => turns.render('flood', request(`Flood ${i}`)));
    const other = turns.render('other', request('Other', 'b'));
    await Promise.all([...flood, other]);
    // The first flood document took the free thread and the flood's next task was waiting first;
    // the other user's document goes after that one task, alone.
    expect(tasks.slice(0, 3)).toEqual([['Flood 0'], Array.from({ length: MAX_RENDERS_A_TASK }, (_, i) => `Flood ${i + 1}`), ['Other']]);
    expect(tasks.flat()).toHaveLength(41);
  });

  it('serves data checks in the same rotation, each a task of its own', async () => {
    const turns = turnsWith();
    await turns.render('ada', request('Warm'));
    tasks.length = 0;
    const check = (owner: string) =>
      turns.onThread(owner, async () => {
        tasks.push([`check ${owner}`]);
        await tick();
        return owner;
      });
    const held = check('ada');
    const sent = [check('ada'), check('ada'), turns.render('bob', request('Bob')), check('bob')];
    expect(await Promise.all([held, ...sent])).toMatchObject(['ada', 'ada', 'ada', { sha256: await alone('Bob') }, 'bob']);
    // ada's first check held the one thread; then ada and bob take it in turn.
    expect(tasks).toEqual([['check ada'], ['check ada'], ['Bob'], ['check ada'], ['check bob']]);
  });

  it('passes a data check’s failure on to its caller and hands the thread on', async () => {
    const turns = turnsWith();
    const failed = turns.onThread('ada', () => Promise.reject(new Error('not valid')));
    const next = turns.render('ada', request('Next'));
    await expect(failed).rejects.toThrow('not valid');
    expect((await next).sha256).toBe(await alone('Next'));
  });

  it('spreads a burst over every thread that comes free rather than giving it all to the first', async () => {
    const two = await createRenderPool({ threads: 2, minThreads: 2, idleTimeoutMs: 60_000 });
    try {
      const sizes: number[] = [];
      const turns = createRenderTurns({
        pool: async () => ({ ...two, render: (task, signal) => (sizes.push(task.items.length), two.render(task, signal)) }),
        threads: 2,
        budgetMs: 60_000,
        maxWaitMs: 60_000,
        maxWaitingPerOwner: 100,
        ...LOOSE,
      });
      await turns.render('ada', request('Warm'));
      sizes.length = 0;
      const names = Array.from({ length: 10 }, (_, i) => `Person ${i}`);
      const results = await Promise.all(names.map((name) => turns.render('ada', request(name))));
      for (const [i, name] of names.entries()) expect(results[i]!.sha256).toBe(await alone(name));
      // Two go at once, alone; of the eight that wait, the first thread free takes half.
      expect(sizes.slice(0, 3)).toEqual([1, 1, 4]);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(names.length);
    } finally {
      await two.close();
    }
  });

  it('refuses a user whose queue is full, and only that user', async () => {
    const turns = turnsWith({ maxWaitingPerOwner: 2 });
    let release!: () => void;
    const held = turns.onThread('a', () => new Promise<void>((resolve) => (release = resolve)));
    await tick();
    const queued = [turns.render('a', request('One')), turns.render('a', request('Two'))];
    await expect(turns.render('a', request('Three'))).rejects.toBeInstanceOf(TooManyWaitingError);
    const other = turns.render('b', request('Other'));
    release();
    await Promise.all([held, ...queued, other]);
  });

  it('stops starting documents once a task has run its share, and makes the rest in the user’s next turns', async () => {
    const turns = turnsWith({ taskShareMs: 0 });
    await turns.render('ada', request('Warm'));
    tasks.length = 0;
    const names = Array.from({ length: 6 }, (_, i) => `Person ${i}`);
    const results = await Promise.all([...names.map((name) => turns.render('ada', request(name))), turns.render('bob', request('Bob', 'b'))]);
    for (const [i, name] of names.entries()) expect(results[i]!.sha256).toBe(await alone(name));
    // Each task of several made only its first document before its share ran out, and the rest
    // waited for ada's next turn, after bob's.
    expect(tasks).toEqual([['Person 0'], names.slice(1), ['Bob'], ...[2, 3, 4, 5].map((from) => names.slice(from))]);
  });

  it('stops only the document that runs past its budget; the others are made after it', async () => {
    // Far from both: the small documents' few ms, however starved a busy machine leaves the thread,
    // and the long one's 10 s and more.
    const turns = turnsWith({ budgetMs: 1_500 });
    await turns.render('ada', notesRequest('warm'));
    tasks.length = 0;
    // The thread is busy with the first; the three after it wait and go together, the long one among them.
    const texts = ['busy', 'before', LONG_NOTE, 'after'];
    const outcomes = await Promise.allSettled(texts.map((text) => turns.render('ada', notesRequest(text))));
    expect(tasks.slice(0, 2).map((task) => task.length)).toEqual([1, 3]);
    expect(outcomes[2]).toMatchObject({ status: 'rejected', reason: expect.any(RenderOverBudgetError) });
    for (const i of [0, 1, 3]) {
      const outcome = outcomes[i]!;
      expect(outcome.status).toBe('fulfilled');
      if (outcome.status === 'fulfilled') expect(pdfText(outcome.value.pdf)).toContain(`Note: ${texts[i]}`);
    }
    // Made again, alone, on the thread that replaced the stopped one.
    expect(tasks.slice(2)).toEqual([['before'], ['after']]);
  });

  it('gives each document of a failed task its own outcome', async () => {
    const turns = turnsWith();
    await turns.render('ada', request('Warm'));
    tasks.length = 0;
    // Data that cannot cross to a thread fails the whole task it is in, as a renderer's error would.
    const broken = request('Broken');
    broken.item.data = { name: 'Broken', cannotCross: (() => 'a function') as never };
    const outcomes = await Promise.allSettled([request('First'), request('Second'), broken, request('Third')].map((render) => turns.render('ada', render)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(tasks.slice(2)).toEqual([['Second'], ['Broken'], ['Third']]);
  });

  it('gives up a task whose thread never starts it, and serves the next', async () => {
    let stalled = true;
    const slowToStart = async (): Promise<TRenderPool> => {
      const real = await noted();
      return {
        ...real,
        render: (task, signal) =>
          stalled ? new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')))) : real.render(task, signal),
      };
    };
    const turns = createRenderTurns({ pool: slowToStart, threads: 1, budgetMs: 60_000, maxWaitMs: 50, maxWaitingPerOwner: 10 });
    await expect(turns.render('ada', request('Stuck'))).rejects.toBeInstanceOf(RenderWaitedTooLongError);
    stalled = false;
    expect(pdfText((await turns.render('ada', request('Next'))).pdf)).toContain('Dear Next,');
  });
});
