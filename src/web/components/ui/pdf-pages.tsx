import { useEffect, useRef, useState } from 'react';
import { cn } from '../../lib/utils';

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

/**
 * Every page of a PDF drawn on canvases, in a scroll box. A new PDF is drawn off screen and then
 * put in place of the old one, so the reader stays on the page and at the scroll position they
 * were at, instead of going back to page 1 as a browser's PDF viewer does on each reload.
 */
export function PdfPages({ pdf, label, className }: { pdf: Blob; label: string; className?: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

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
          pages.push(canvas);
        }
        if (cancelled) return;
        const top = box.scrollTop;
        box.replaceChildren(...pages);
        box.scrollTop = top;
        setFailed(false);
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
  }, [pdf]);

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
