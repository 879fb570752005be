import { parseInlineMarkup, safeLinkHref, type TInlineLink } from '../contract/inline-markup.ts';
import type { RichSpan, TLinkTarget } from './text.ts';
import type { TRenderWarning } from './types.ts';

/**
 * A block's text as styled spans with their placeholders filled in: `markup` reads inline
 * emphasis, and `extended` underline and links too. Those are markup only in formats saved since
 * documents are tagged: in older ones `__` and `[a](b)` print as typed, as they always did. A
 * link whose filled-in address is not http, https or mailto prints as plain words, with a warning.
 */
export function richSpans(
  template: string,
  { markup, extended, fill, warnings }: { markup: boolean; extended: boolean; fill: (text: string) => string; warnings: TRenderWarning[] },
): RichSpan[] {
  const parts = markup ? parseInlineMarkup(template, { extended }) : [{ text: template, bold: false, italic: false }];
  const out: RichSpan[] = [];
  let links: Map<TInlineLink, TLinkTarget | null> | undefined;
  for (const { link, ...part } of parts) {
    const span: RichSpan = { ...part, text: fill(part.text) };
    if (link) {
      links ??= new Map();
      let target = links.get(link);
      if (target === undefined) {
        const uri = safeLinkHref(fill(link.href));
        target = uri ? { uri } : null;
        links.set(link, target);
        if (!uri) warnings.push({ code: 'link_invalid', message: `A link’s address is not an http, https or mailto address: ${link.href.slice(0, 100)}` });
      }
      if (target) span.link = target;
    }
    out.push(span);
  }
  return out;
}
