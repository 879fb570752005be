import { EraserIcon } from 'lucide-react';
import SignaturePad from 'signature_pad';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';

const PEN_COLOR = '#1e2a5a';
/** Room left around the strokes of a trimmed signature, in canvas pixels. */
const TRIM_PAD = 8;

/** The strokes cut to their bounding box, as a PNG data URL; null for an empty canvas. */
function trimmedPng(canvas: HTMLCanvasElement): string | null {
  const ctx = canvas.getContext('2d');
  if (!ctx || canvas.width === 0 || canvas.height === 0) return null;
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let top = height;
  let left = width;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] === 0) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      bottom = y;
    }
  }
  if (right < 0) return null;
  left = Math.max(0, left - TRIM_PAD);
  top = Math.max(0, top - TRIM_PAD);
  const w = Math.min(width, right + TRIM_PAD + 1) - left;
  const h = Math.min(height, bottom + TRIM_PAD + 1) - top;
  const out = document.createElement('canvas');
  out.width = w;
  out.height = h;
  out.getContext('2d')?.drawImage(canvas, left, top, w, h, 0, 0, w, h);
  return out.toDataURL('image/png');
}

/**
 * A box to draw a signature in with a mouse, pen or finger (signature_pad). The canvas follows its
 * container's width and the screen's pixel density, keeping what was drawn; each finished stroke
 * reports the drawing, trimmed to its strokes, as a PNG data URL (null once cleared).
 */
export function SignatureCanvas({
  label,
  onChange,
  className,
  heightClass = 'h-40',
}: {
  /** The canvas's accessible name. */
  label: string;
  onChange: (png: string | null) => void;
  className?: string;
  heightClass?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const changed = useEffectEvent((png: string | null) => onChange(png));
  const [unsupported, setUnsupported] = useState(false);
  const [empty, setEmpty] = useState(true);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let pad: SignaturePad;
    try {
      if (!canvas.getContext('2d')) throw new Error('no 2D canvas');
      pad = new SignaturePad(canvas, { penColor: PEN_COLOR, minWidth: 0.8, maxWidth: 2.6, backgroundColor: 'rgba(0,0,0,0)' });
    } catch {
      setUnsupported(true);
      return;
    }
    padRef.current = pad;
    const report = () => {
      const png = pad.isEmpty() ? null : trimmedPng(canvas);
      setEmpty(png === null);
      changed(png);
    };
    // Sized in device pixels so strokes stay sharp on high-density screens; the strokes are kept
    // in CSS pixels and drawn again at the new size.
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = Math.round(canvas.offsetWidth * ratio);
      const height = Math.round(canvas.offsetHeight * ratio);
      if (width === 0 || height === 0 || (canvas.width === width && canvas.height === height)) return;
      const strokes = pad.toData();
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (strokes.length > 0) pad.fromData(strokes);
    };
    fit();
    pad.addEventListener('endStroke', report);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(canvas);
    return () => {
      observer?.disconnect();
      pad.removeEventListener('endStroke', report);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    setEmpty(true);
    onChange(null);
  };

  if (unsupported) {
    return (
      <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
        Drawing does not work in this browser. Type or upload your signature instead.
      </p>
    );
  }
  return (
    <div className={cn('grid gap-2', className)}>
      <div className="relative">
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={label}
          className={cn('block w-full cursor-crosshair touch-none rounded-lg border border-input bg-background', heightClass)}
        />
        {/* A line to sign on, as on paper; not part of the drawing. */}
        <span aria-hidden className="pointer-events-none absolute inset-x-6 bottom-8 border-b border-dashed border-muted-foreground/40" />
        {empty && (
          <span aria-hidden className="pointer-events-none absolute inset-x-0 top-3 text-center text-xs text-muted-foreground">
            Draw here
          </span>
        )}
      </div>
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">Using a keyboard? Choose Type instead.</p>
        <Button variant="ghost" size="sm" onClick={clear} disabled={empty}>
          <EraserIcon aria-hidden /> Clear
        </Button>
      </div>
    </div>
  );
}
