import { describe, expect, it } from 'vitest';
import { MAX_TABLE_ROWS, MAX_TEXT_LENGTH, ZElement, ZFormatContent } from './format-content.ts';

describe('format content', () => {
  it('fills the documented defaults into minimal elements', () => {
    const c = ZFormatContent.parse({
      elements: [
        { id: '1', type: 'image', src: '/api/assets/abc' },
        { id: '2', type: 'table' },
        { id: '3', type: 'list' },
      ],
    });
    expect(c.elements[0]).toMatchObject({ width: 300, height: 200, align: 'left' });
    expect(c.elements[1]).toMatchObject({
      rows: [
        ['', ''],
        ['', ''],
      ],
      headerRow: false,
    });
    expect(c.elements[2]).toMatchObject({ items: [], listStyle: 'bulleted' });
    expect(ZFormatContent.parse({})).toEqual({ elements: [] });
  });

  it('rejects unknown types, bad values and absurd sizes', () => {
    expect(ZElement.safeParse({ id: '1', type: 'video' }).success).toBe(false);
    expect(ZElement.safeParse({ id: '1', type: 'heading', fontSize: 'text-9xl' }).success).toBe(false);
    expect(ZElement.safeParse({ id: '1', type: 'image', src: 'file:///etc/passwd' }).success).toBe(false);
    expect(ZElement.safeParse({ id: '1', type: 'paragraph', content: 'x'.repeat(MAX_TEXT_LENGTH + 1) }).success).toBe(false);
    expect(ZElement.safeParse({ id: '1', type: 'table', rows: Array.from({ length: MAX_TABLE_ROWS + 1 }, () => ['a']) }).success).toBe(false);
    expect(ZFormatContent.safeParse({ elements: [], style: { fontSize: 13 } }).success).toBe(false);
    expect(ZFormatContent.safeParse({ elements: [], style: { color: 'red' } }).success).toBe(false);
  });
});
