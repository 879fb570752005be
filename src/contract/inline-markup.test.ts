import { describe, expect, it } from 'vitest';
import { parseInlineMarkup, safeLinkHref } from './inline-markup.ts';

const plain = (text: string, extra: object = {}) => ({ text, bold: false, italic: false, ...extra });

describe('parseInlineMarkup', () => {
  it('reads bold and italic as formats always have, a stray marker printed as typed', () => {
    expect(parseInlineMarkup('a **b** *c* 2 * 3')).toEqual([
      plain('a '),
      plain('b', { bold: true }),
      plain(' '),
      plain('c', { italic: true }),
      plain(' 2 * 3'),
    ]);
    expect(parseInlineMarkup('[x](https://a.example) __u__')).toEqual([plain('[x](https://a.example) __u__')]);
  });

  it('reads underline and links when extended, emphasis carried into the link', () => {
    const spans = parseInlineMarkup('**Pay [now *please*](https://pay.example/{{id}})** or __later__', { extended: true });
    const link = { href: 'https://pay.example/{{id}}' };
    expect(spans).toEqual([
      plain('Pay ', { bold: true }),
      plain('now ', { bold: true, link }),
      plain('please', { bold: true, italic: true, link }),
      plain(' or '),
      plain('later', { underline: true }),
    ]);
    // One object per link, so a link broken over lines stays one link.
    expect(spans[1]!.link).toBe(spans[2]!.link);
  });

  it('takes a whole placeholder as an address, and leaves anything but http, https and mailto as text', () => {
    expect(parseInlineMarkup('[Sign]({{sign_url}})', { extended: true })).toEqual([plain('Sign', { link: { href: '{{sign_url}}' } })]);
    expect(parseInlineMarkup('[x](javascript:alert(1)) [y](ftp://a)', { extended: true })).toEqual([plain('[x](javascript:alert(1)) [y](ftp://a)')]);
  });

  it('never splits a placeholder whose name holds underscores', () => {
    expect(parseInlineMarkup('Hi {{first__name}} and {{last__name}}', { extended: true })).toEqual([plain('Hi {{first__name}} and {{last__name}}')]);
    expect(parseInlineMarkup('__{{a__b}}__', { extended: true })).toEqual([plain('{{a__b}}', { underline: true })]);
  });
});

describe('safeLinkHref', () => {
  it('keeps http, https and mailto, encoded as a PDF needs, and refuses the rest', () => {
    expect(safeLinkHref(' https://example.com/a b?q=ü ')).toBe('https://example.com/a%20b?q=%C3%BC');
    expect(safeLinkHref('mailto:jane@example.com')).toBe('mailto:jane@example.com');
    for (const bad of ['', 'javascript:alert(1)', 'file:///etc/passwd', 'example.com', 'data:text/html,x']) expect(safeLinkHref(bad)).toBeNull();
  });
});
