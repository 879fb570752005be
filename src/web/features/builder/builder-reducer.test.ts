import { describe, expect, it } from 'vitest';
import type { TElement } from '../../../contract/format-content';
import { builderReducer, HISTORY_LIMIT, initialBuilderState, type BuilderAction, type BuilderState } from './builder-reducer';
import type { TPlaceholder } from '../../../contract/placeholders';
import { createElement, emptyDoc, placeholderUsage } from './model';

const heading = (id: string, content = 'Title'): TElement => ({ ...createElement('heading', id), content }) as TElement;
const run = (state: BuilderState, ...actions: BuilderAction[]) => actions.reduce(builderReducer, state);
const ids = (state: BuilderState) => state.doc.content.elements.map((e) => e.id);
const textOf = (state: BuilderState, id: string) => {
  const el = state.doc.content.elements.find((e) => e.id === id);
  return el && 'content' in el ? el.content : undefined;
};
const typeInto = (id: string, content: string): BuilderAction => ({
  type: 'update-element',
  id,
  update: (el) => (el.type === 'heading' || el.type === 'paragraph' ? { ...el, content } : el),
});

describe('builderReducer', () => {
  const start = initialBuilderState(emptyDoc('Offer'));

  it('adds, moves, reorders and deletes elements', () => {
    let s = run(
      start,
      { type: 'add-element', element: heading('a') },
      { type: 'add-element', element: heading('b') },
      { type: 'add-element', element: heading('c') },
    );
    expect(ids(s)).toEqual(['a', 'b', 'c']);
    s = run(s, { type: 'move-element', id: 'c', delta: -1 });
    expect(ids(s)).toEqual(['a', 'c', 'b']);
    s = run(s, { type: 'reorder', activeId: 'b', overId: 'a' });
    expect(ids(s)).toEqual(['b', 'a', 'c']);
    s = run(s, { type: 'delete-element', id: 'a' });
    expect(ids(s)).toEqual(['b', 'c']);
    s = run(s, { type: 'add-element', element: heading('a'), index: 1 });
    expect(ids(s)).toEqual(['b', 'a', 'c']);
  });

  it('undoes and redoes every kind of edit, in order', () => {
    const s = run(
      start,
      { type: 'rename', name: 'Offer letter' },
      { type: 'add-element', element: heading('a') },
      { type: 'add-placeholder', placeholder: { name: 'client_name', type: 'text', required: true, options: [] } },
      { type: 'set-style', elementId: null, style: { fontFamily: 'Inter' } },
      { type: 'clear' },
    );
    expect(s.doc.content.elements).toEqual([]);
    expect(s.doc.content.style).toEqual({ fontFamily: 'Inter' });
    const undone = run(s, { type: 'undo' });
    expect(ids(undone)).toEqual(['a']);
    expect(undone.doc.placeholders.map((p) => p.name)).toEqual(['client_name']);
    const back = run(undone, { type: 'undo' }, { type: 'undo' }, { type: 'undo' }, { type: 'undo' });
    expect(back.doc).toEqual(start.doc);
    expect(run(back, { type: 'undo' })).toBe(back);
    const again = run(back, { type: 'redo' }, { type: 'redo' }, { type: 'redo' }, { type: 'redo' }, { type: 'redo' });
    expect(again.doc).toEqual(s.doc);
    expect(run(again, { type: 'redo' })).toBe(again);
  });

  it('takes back a run of typing in one field as one step, but not typing in two fields', () => {
    let s = run(start, { type: 'add-element', element: heading('a', '') }, { type: 'add-element', element: heading('b', '') });
    s = run(s, typeInto('a', 'H'), typeInto('a', 'He'), typeInto('a', 'Hello'));
    s = run(s, typeInto('b', 'W'), typeInto('b', 'World'));
    const once = run(s, { type: 'undo' });
    expect(textOf(once, 'a')).toBe('Hello');
    expect(textOf(once, 'b')).toBe('');
    const twice = run(once, { type: 'undo' });
    expect(textOf(twice, 'a')).toBe('');
    expect(ids(twice)).toEqual(['a', 'b']);
  });

  it('starts a new step after an undo, and a new edit drops the redo steps', () => {
    let s = run(start, { type: 'rename', name: 'A' }, { type: 'rename', name: 'AB' });
    s = run(s, { type: 'undo' });
    expect(s.doc.name).toBe('Offer');
    s = run(s, { type: 'rename', name: 'X' });
    expect(s.future).toEqual([]);
    expect(run(s, { type: 'redo' })).toBe(s);
    expect(run(s, { type: 'undo' }).doc.name).toBe('Offer');
  });

  it('does not record an edit that changes nothing', () => {
    const placeholder = { name: 'x', type: 'text' as const, required: false, options: [] };
    const s = run(start, { type: 'add-placeholder', placeholder });
    expect(run(s, { type: 'add-placeholder', placeholder })).toBe(s);
  });

  it('styles text elements but never an image, and drops empty styles', () => {
    let s = run(start, { type: 'add-element', element: heading('a') }, { type: 'add-element', element: createElement('image', 'i') });
    s = run(s, { type: 'set-style', elementId: 'a', style: { color: '#111111' } }, { type: 'set-style', elementId: 'i', style: { color: '#111111' } });
    expect(s.doc.content.elements.find((e) => e.id === 'a')).toMatchObject({ style: { color: '#111111' } });
    expect(s.doc.content.elements.find((e) => e.id === 'i')).not.toHaveProperty('style');
    s = run(s, { type: 'set-style', elementId: 'a', style: {} });
    expect(s.doc.content.elements.find((e) => e.id === 'a')).not.toHaveProperty('style');
  });

  it(`keeps at most ${HISTORY_LIMIT} steps`, () => {
    let s = start;
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = run(s, { type: 'add-element', element: heading(`e${i}`) });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = run(s, { type: 'undo' });
    expect(ids(s)).toHaveLength(20);
  });

  it('renames a placeholder and every tag that uses it, in one undoable step', () => {
    const paragraph = { ...createElement('paragraph', 'p'), content: 'Dear {{client_name}}, re {{Client Name}} and {{other}}.' } as TElement;
    let s = run(
      start,
      { type: 'add-element', element: paragraph },
      { type: 'add-placeholder', placeholder: { name: 'client_name', type: 'text', required: false, options: [] } },
      { type: 'add-placeholder', placeholder: { name: 'other', type: 'text', required: false, options: [] } },
    );
    s = run(s, { type: 'update-placeholder', name: 'client_name', placeholder: { name: 'customer', type: 'text', required: true, options: [] } });
    expect(textOf(s, 'p')).toBe('Dear {{customer}}, re {{customer}} and {{other}}.');
    expect(s.doc.placeholders.map((p) => [p.name, p.required])).toEqual([
      ['customer', true],
      ['other', false],
    ]);
    // A name another placeholder has is refused, and nothing changes.
    expect(run(s, { type: 'update-placeholder', name: 'customer', placeholder: { name: 'other', type: 'text', required: false, options: [] } })).toBe(s);
    const undone = run(s, { type: 'undo' });
    expect(textOf(undone, 'p')).toBe('Dear {{client_name}}, re {{Client Name}} and {{other}}.');
  });

  it('load starts over with an empty history', () => {
    const s = run(start, { type: 'rename', name: 'A' }, { type: 'load', doc: emptyDoc('Next') });
    expect(s.doc.name).toBe('Next');
    expect(s.past).toEqual([]);
  });
});

describe('sections and logic', () => {
  const paragraph = (id: string, content = id): TElement => ({ ...createElement('paragraph', id), content }) as TElement;
  const section = (id: string): TElement => createElement('section', id);
  const tree = (state: BuilderState) =>
    state.doc.content.elements.map((e) => (e.type === 'section' ? `${e.id}[${e.elements.map((c) => c.id).join(',')}]` : e.id));

  it('adds into a section, moves within it, out of it and into the section above, edits and deletes there', () => {
    let s = run(initialBuilderState(emptyDoc('S')), { type: 'add-element', element: section('s') }, { type: 'add-element', element: paragraph('a') });
    s = run(s, { type: 'add-element', element: paragraph('x'), sectionId: 's' }, { type: 'add-element', element: paragraph('y'), sectionId: 's' });
    expect(tree(s)).toEqual(['s[x,y]', 'a']);
    s = run(s, { type: 'move-element', id: 'y', delta: -1 });
    expect(tree(s)).toEqual(['s[y,x]', 'a']);
    s = run(s, { type: 'move-across-section', id: 'a', direction: 'into-above' });
    expect(tree(s)).toEqual(['s[y,x,a]']);
    s = run(s, { type: 'move-across-section', id: 'y', direction: 'out' });
    expect(tree(s)).toEqual(['s[x,a]', 'y']);
    s = run(s, typeInto('x', 'Inside'), { type: 'delete-element', id: 'a' });
    expect(tree(s)).toEqual(['s[x]', 'y']);
    const inner = s.doc.content.elements[0]!;
    expect(inner.type === 'section' && inner.elements[0]).toMatchObject({ content: 'Inside' });
  });

  it('writes a renamed placeholder into formulas, conditions and repeats, and a renamed column into its row’s tags', () => {
    const items: TPlaceholder = {
      name: 'items',
      type: 'list',
      required: false,
      options: [],
      columns: [
        { name: 'qty', type: 'number', required: false, options: [] },
        { name: 'price', type: 'number', required: false, options: [] },
      ],
    };
    const total: TPlaceholder = { name: 'total', type: 'formula', required: false, options: [], expression: 'sum(items.qty * items.price)' };
    const table: TElement = {
      ...createElement('table', 't'),
      rows: [['{{qty}} × {{items.price}}']],
      repeat: { row: 0, list: 'items' },
      showIf: { match: 'all', conditions: [{ field: 'items', op: 'is_not_empty' }] },
    } as TElement;
    let s = run(
      initialBuilderState(emptyDoc('R')),
      { type: 'add-placeholder', placeholder: items },
      { type: 'add-placeholder', placeholder: total },
      { type: 'add-element', element: table },
    );
    s = run(s, { type: 'update-placeholder', name: 'items', placeholder: { ...items, name: 'lines' } });
    let t = s.doc.content.elements[0]!;
    expect(t).toMatchObject({ rows: [['{{qty}} × {{lines.price}}']], repeat: { list: 'lines' }, showIf: { conditions: [{ field: 'lines' }] } });
    expect(s.doc.placeholders[1]!.expression).toBe('sum(lines.qty * lines.price)');
    const renamedColumns = { ...items, name: 'lines', columns: [{ ...items.columns![0]!, name: 'quantity' }, items.columns![1]!] };
    s = run(s, { type: 'update-placeholder', name: 'lines', placeholder: renamedColumns, columnRenames: { qty: 'quantity' } });
    t = s.doc.content.elements[0]!;
    expect(t).toMatchObject({ rows: [['{{quantity}} × {{lines.price}}']] });
    expect(s.doc.placeholders[1]!.expression).toBe('sum(lines.quantity * lines.price)');
  });

  it('counts a list used by its repeats, knows its columns there, and counts what formulas read', () => {
    const items: TPlaceholder = {
      name: 'items',
      type: 'list',
      required: false,
      options: [],
      columns: [{ name: 'qty', type: 'number', required: false, options: [] }],
    };
    const rate: TPlaceholder = { name: 'rate', type: 'number', required: false, options: [] };
    const total: TPlaceholder = { name: 'total', type: 'formula', required: false, options: [], expression: 'sum(items.qty) * rate' };
    const content = {
      elements: [{ ...createElement('table', 't'), rows: [['{{qty}}'], ['{{total}} {{qty}}']], repeat: { row: 0, list: 'items' } }] as TElement[],
    };
    const usage = placeholderUsage(content, [items, rate, total]);
    expect(Object.fromEntries(usage.counts)).toEqual({ items: 3, rate: 1, total: 1 });
    // Outside its repeating row, a column's tag matches nothing.
    expect(usage.unknownTags).toEqual(['qty']);
  });
});
