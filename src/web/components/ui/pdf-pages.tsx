import { useEffect, useRef, useState } from 'react';
import { cn } from '../../lib/utils';
import { findMarks, orderMarks, type TPdfMark, type TPdfMarkRect } from './pdf-marks';

type PdfJs = typeof import('pdfjs-dist');

let pdfJs: Promise<PdfJs> | null = null;
/** PDF.js and its worker load on first use, so only screens with a live preview pay for them. */
function loadPdfJs(): Promise<PdfJs> {
  pdfJs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  return pdfJs;
}

const PAGE_GAP_PX = 12;

/** A highlight over a page, numbered in reading order; `data-active` makes the current one stronger. */
function markElement(rect: TPdfMarkRect, n: number): HTMLElement {
  const el = document.createElement('div');
  el.className =
    'pointer-events-none absolute scroll-m-6 rounded-sm bg-primary/10 ring-2 ring-primary/70 transition-[box-shadow,background-color] data-[active=true]:bg-primary/20 data-[active=true]:ring-4 data-[active=true]:ring-primary';
  Object.assign(el.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  el.dataset.testid = 'pdf-mark';
  const badge = document.createElement('span');
  badge.className =
    'absolute -top-2.5 -left-2.5 flex size-5 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-primary-foreground shadow-card';
  badge.textContent = String(n);
  el.append(badge);
  return el;
}

/**
 * Every page of a PDF drawn on canvases, in a scroll box. A new PDF is drawn off screen and then
 * put in place of the old one, so the reader stays on the page and at the scroll position they
 * were at, instead of going back to page 1 as a browser's PDF viewer does on each reload.
 *
 * With `marks`, the text each one names is looked for on the pages and its box highlighted and
 * numbered in reading order; `onMarks` hears how many were found (none when the text is not there),
 * `activeMark` is the one shown stronger, and each change of `scrollKey` scrolls it into view.
 */
export function PdfPages({
  pdf,
  label,
  className,
  marks,
  activeMark,
  scrollKey,
  onMarks,
}: {
  pdf: Blob;
  label: string;
  className?: string;
  marks?: readonly TPdfMark[];
  activeMark?: number;
  scrollKey?: number;
  onMarks?: (count: number) => void;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const markEls = useRef<HTMLElement[]>([]);
  // Read when a drawing finishes, so new marks or a new listener do not redraw the pages.
  const latest = useRef({ marks, activeMark, onMarks });
  useEffect(() => {
    latest.current = { marks, activeMark, onMarks };
  });
  const marksKey = marks?.map((mark) => mark.text).join('\n');

  useEffect(() => {
    let cancelled = false;
    const draw = async () => {
      const box = boxRef.current;
      if (!box) return;
      const lib = await loadPdfJs();
      const doc = await lib.getDocument({ data: new Uint8Array(await pdf.arrayBuffer()) }).promise;
      try {
        const width = Math.max(200, box.clientWidth - 2 * PAGE_GAP_PX);
        const ratio = window.devicePixelRatio || 1;
        const pages: HTMLElement[] = [];
        const wanted = latest.current.marks ?? [];
        const found: TPdfMarkRect[] = [];
        for (let n = 1; n <= doc.numPages && !cancelled; n++) {
          const page = await doc.getPage(n);
          const scale = width / page.getViewport({ scale: 1 }).width;
          const viewport = page.getViewport({ scale: scale * ratio });
          const canvas = document.createElement('canvas');
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          canvas.style.width = `${width}px`;
          canvas.style.height = `${viewport.height / ratio}px`;
          canvas.className = 'block bg-white shadow-card';
          canvas.setAttribute('aria-hidden', 'true');
          await page.render({ canvas, viewport }).promise;
          if (wanted.length === 0) {
            pages.push(canvas);
            continue;
          }
          // Marks are placed over the canvas, in a frame of the page's size.
          const frame = document.createElement('div');
          frame.className = 'relative';
          frame.append(canvas);
          pages.push(frame);
          // A page whose text cannot be read just has no marks.
          const text = await page.getTextContent().catch(() => ({ items: [] }));
          const items = text.items.flatMap((item) => ('str' in item ? [item] : []));
          found.push(...findMarks(items, wanted, page.getViewport({ scale }).transform, n - 1));
        }
        if (cancelled) return;
        const ordered = orderMarks(found);
        markEls.current = ordered.map((rect, i) => {
          const el = markElement(rect, i + 1);
          el.dataset.active = String(i === latest.current.activeMark);
          pages[rect.page]?.append(el);
          return el;
        });
        const top = box.scrollTop;
        box.replaceChildren(...pages);
        box.scrollTop = top;
        setFailed(false);
        latest.current.onMarks?.(ordered.length);
      } finally {
        await doc.destroy();
      }
    };
    draw().catch(() => {
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
    };
  }, [pdf, marksKey]);

  useEffect(() => {
    markEls.current.forEach((el, i) => (el.dataset.active = String(i === activeMark)));
  }, [activeMark]);

  useEffect(() => {
    if (scrollKey === undefined || activeMark === undefined) return;
    const box = boxRef.current;
    const el = markEls.current[activeMark];
    if (!box || !el) return;
    const behavior = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
    // The mark to the middle of the scroll box; the window moves only if the box is not in view (a phone).
    const at = el.getBoundingClientRect();
    const inBox = at.top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTo({ top: inBox - (box.clientHeight - at.height) / 2, behavior });
    const seen = box.getBoundingClientRect();
    if (seen.top < 0 || seen.bottom > window.innerHeight) box.scrollIntoView({ block: 'nearest', behavior });
    // Only a new scrollKey scrolls: the signer asked to go to a field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollKey]);

  return (
    <>
      <div
        ref={boxRef}
        // A scroll box keyboard users can scroll too; the pages are pictures, the PDF itself opens in a tab.
        role="region"
        tabIndex={0}
        aria-label={label}
        className={cn('flex flex-col items-center overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
        style={{ gap: PAGE_GAP_PX, padding: PAGE_GAP_PX }}
        data-testid="pdf-pages"
      />
      {failed && (
        <p className="absolute inset-x-0 bottom-0 bg-background/90 px-3 py-2 text-center text-xs text-muted-foreground" role="status">
          The preview could not be drawn here. Open it in a new tab with the button above.
        </p>
      )}
    </>
  );
}
