import { Fragment, type ReactNode } from 'react';
import { LINK_COLOR, parseInlineMarkup } from '../../../contract/inline-markup';
import { findPlaceholderTags } from '../../../contract/placeholders';
import { cn } from '../../lib/utils';

const TAG_RE = /(\{\{[^{}]{1,100}\}\})/g;
const RESERVED = new Set(['page', 'pages']);

function Tag({ raw, known }: { raw: string; known: ReadonlySet<string> }) {
  // `{{total | currency}}` names `total`, printed in a value format.
  const tag = findPlaceholderTags(raw)[0];
  const name = tag?.name ?? '';
  const ok = known.has(name) || RESERVED.has(name) || (tag?.whole !== undefined && known.has(tag.whole));
  // A narrow table cell may break a tag before its value format, never inside a name.
  const bar = raw.indexOf('|');
  const text =
    bar > 0 ? (
      <>
        <span className="whitespace-nowrap">{raw.slice(0, bar).trimEnd()}</span> <wbr />
        <span className="whitespace-nowrap">{raw.slice(bar)}</span>
      </>
    ) : (
      raw
    );
  return (
    <span
      className={cn(
        'box-decoration-clone rounded-[4px] px-1 py-px font-sans text-[0.85em] font-medium whitespace-nowrap ring-1 ring-inset',
        bar > 0 && 'whitespace-normal',
        ok ? 'bg-primary-soft text-primary ring-primary/15' : 'bg-[oklch(0.97_0.05_85)] text-[oklch(0.5_0.12_60)] ring-[oklch(0.8_0.12_75)]',
      )}
      title={ok ? `Placeholder ${name}` : `No placeholder named ${name}`}
    >
      {text}
    </span>
  );
}

function withTags(text: string, known: ReadonlySet<string>): ReactNode[] {
  return text.split(TAG_RE).map((part, i) => (i % 2 === 1 ? <Tag key={i} raw={part} known={known} /> : part ? <Fragment key={i}>{part}</Fragment> : null));
}

function line(text: string, known: ReadonlySet<string>): ReactNode[] {
  // The builder saves every format as one whose documents read underline and links.
  return parseInlineMarkup(text, { extended: true }).map((span, i) => {
    let node: ReactNode = withTags(span.text, known);
    if (span.italic) node = <em>{node}</em>;
    if (span.bold) node = <strong>{node}</strong>;
    if (span.link) {
      node = (
        <span className="underline" style={{ color: LINK_COLOR }} title={`Link to ${span.link.href}`}>
          {node}
        </span>
      );
    } else if (span.underline) node = <u>{node}</u>;
    return <Fragment key={i}>{node}</Fragment>;
  });
}

/**
 * Text as the PDF prints it: `**bold**`, `*italic*`, `__underline__`, `[links](…)`, line breaks, with `{{tags}}`
 * highlighted. Headings print their text as typed (`markup={false}`): asterisks stay asterisks.
 */
export function InlineText({ text, known, markup = true }: { text: string; known: ReadonlySet<string>; markup?: boolean }) {
  const lines = text.split('\n');
  return (
    <>
      {lines.map((l, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {markup ? line(l, known) : withTags(l, known)}
        </Fragment>
      ))}
    </>
  );
}
