import { useQuery } from '@tanstack/react-query';
import { ImageIcon, ImageUpIcon, Loader2Icon } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { MAX_IMAGE_PX, ZImageFromUrlBody, type TImageElement } from '../../../../contract/format-content';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { upgradeActionFor } from '../../../components/plan/upgrade';
import { toast } from '../../../hooks/use-toast';
import { readApiError } from '../../../lib/api';
import { apiHref } from '../../../lib/workspace-links';
import { imageKeys } from '../../../lib/query-keys';
import { handleIfUnauthorized } from '../../../lib/unauthorized';
import { cn } from '../../../lib/utils';
import { IMAGE_ACCEPT, imageFromUrl, MAX_IMAGE_BYTES, uploadImage } from '../api';
import { AlignGroup } from '../controls';
import { ImageAltText } from './image-alt-text';
import { never, useFocusOnOpen, type ElementUpdater } from './shared';

const JUSTIFY = { left: 'justify-start', center: 'justify-center', right: 'justify-end' } as const;

export function ImageView({ el }: { el: TImageElement }) {
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const box = { width: el.width, height: el.height, maxWidth: '100%' };
  // An address the browser cannot show here (http:// under our content policy, or a host that
  // refuses other sites) is fetched once by the server, the way the PDF gets it, and shown from
  // our own origin. The element keeps its address.
  const byAddress = /^https?:\/\//i.test(el.src);
  const copy = useQuery({
    queryKey: imageKeys.byAddress(el.src),
    queryFn: () => imageFromUrl(el.src),
    enabled: byAddress && failed.has(el.src),
    retry: false,
    staleTime: Infinity,
  });
  // A team's stored image names the team in its address (lib/workspace-links.ts).
  const shown = [apiHref(el.src), copy.data].find((src) => src && !failed.has(src));
  if (shown) {
    // Someone reading the canvas with a screen reader hears what readers of the PDF will.
    return (
      <div className={cn('flex', JUSTIFY[el.align])}>
        <img
          src={shown}
          alt={el.decorative ? '' : (el.alt ?? '')}
          style={box}
          className="rounded-sm object-contain"
          onError={() => setFailed((before) => new Set(before).add(shown))}
        />
      </div>
    );
  }
  const message = !el.src
    ? 'No image yet: click to add one'
    : copy.isError
      ? readApiError(copy.error, 'This image could not be loaded.').message
      : byAddress && !copy.isSuccess
        ? 'Loading the image…'
        : 'This image cannot be shown.';
  return (
    <div className={cn('flex', JUSTIFY[el.align])}>
      <div
        style={{ ...box, aspectRatio: `${el.width} / ${el.height}`, height: 'auto', maxHeight: el.height }}
        className="flex min-h-20 flex-col items-center justify-center gap-1.5 rounded-md border border-dashed bg-muted/60 px-3 text-center font-sans text-xs text-muted-foreground"
      >
        <ImageIcon className="size-5" aria-hidden />
        <span role={copy.isError ? 'alert' : undefined}>{message}</span>
        <span className="tabular-nums">
          {el.width} × {el.height}
        </span>
      </div>
    </div>
  );
}

function clampPx(value: string, fallback: number): number {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n) || n < 1) return fallback;
  return Math.min(MAX_IMAGE_PX, n);
}

/** The widest a new image starts, in px: about half a page, so it sits in the text rather than filling it. */
const NEW_IMAGE_MAX_WIDTH = 360;

/**
 * The box a newly added image starts with: its own proportions, at most NEW_IMAGE_MAX_WIDTH wide.
 * Nothing changes when the browser cannot read its size.
 */
async function naturalBox(src: string): Promise<{ width: number; height: number } | Record<string, never>> {
  const img = new Image();
  img.src = src;
  try {
    await img.decode();
  } catch {
    return {};
  }
  if (!img.naturalWidth || !img.naturalHeight) return {};
  const width = Math.min(NEW_IMAGE_MAX_WIDTH, img.naturalWidth);
  return { width, height: Math.max(1, Math.round((width * img.naturalHeight) / img.naturalWidth)) };
}

/** Where the image comes from: an address the server fetches, or an uploaded file. */
function useImageSource(el: TImageElement, set: (p: Partial<TImageElement>) => void) {
  const [url, setUrl] = useState(el.src.startsWith('/api/assets/') ? '' : el.src);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  useFocusOnOpen(urlRef, never);

  const [fetching, setFetching] = useState(false);
  // The server fetches the image once and keeps it like an upload: the canvas then shows, from our
  // own origin (http:// images too), exactly what the PDF will embed, and a bad address is told now.
  const applyUrl = async () => {
    const parsed = ZImageFromUrlBody.safeParse({ url });
    if (!parsed.success) {
      setUrlError(parsed.error.issues[0]?.message ?? 'Enter an image address starting with http:// or https://');
      return;
    }
    setUrlError(null);
    setFetching(true);
    try {
      const src = await imageFromUrl(parsed.data.url);
      set({ src, ...(await naturalBox(src)) });
      toast({ title: 'Image Added', description: 'The image was fetched and added to the format.' });
    } catch (error) {
      if (!handleIfUnauthorized(error)) setUrlError(readApiError(error, 'The image could not be loaded from this address.').message);
    } finally {
      setFetching(false);
    }
  };

  // A picker still holding the last file fires no change when that file is chosen again (fixed or not).
  const emptyPicker = () => {
    if (fileRef.current) fileRef.current.value = '';
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (!IMAGE_ACCEPT.split(',').includes(file.type)) {
      emptyPicker();
      toast({ variant: 'destructive', title: 'Unsupported image', description: 'Use a PNG, JPEG, GIF or WebP image.' });
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      emptyPicker();
      toast({ variant: 'destructive', title: 'Image too large', description: 'Images can be at most 10 MB.' });
      return;
    }
    setUploading(true);
    try {
      const src = await uploadImage(file);
      set({ src, ...(await naturalBox(src)) });
      setUrl('');
      setUrlError(null);
      toast({ title: 'Image Uploaded', description: `${file.name} was added to the format.` });
    } catch (error) {
      if (!handleIfUnauthorized(error)) {
        toast({
          variant: 'destructive',
          title: 'Upload failed',
          description: readApiError(error, 'The image could not be uploaded.').message,
          action: upgradeActionFor(error),
        });
      }
    } finally {
      setUploading(false);
      emptyPicker();
    }
  };

  return { url, setUrl, urlError, uploading, fetching, fileRef, urlRef, applyUrl, onFile };
}

/** Width, height and alignment on the page. */
function ImageBoxFields({ id, el, set }: { id: string; el: TImageElement; set: (p: Partial<TImageElement>) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-w`}>Width (px)</Label>
        <Input
          id={`${id}-w`}
          type="number"
          min={1}
          max={MAX_IMAGE_PX}
          defaultValue={el.width}
          key={`w${el.width}`}
          onBlur={(e) => set({ width: clampPx(e.target.value, el.width) })}
          onKeyDown={(e) => e.key === 'Enter' && set({ width: clampPx(e.currentTarget.value, el.width) })}
          className="h-9 w-24"
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-h`}>Height (px)</Label>
        <Input
          id={`${id}-h`}
          type="number"
          min={1}
          max={MAX_IMAGE_PX}
          defaultValue={el.height}
          key={`h${el.height}`}
          onBlur={(e) => set({ height: clampPx(e.target.value, el.height) })}
          onKeyDown={(e) => e.key === 'Enter' && set({ height: clampPx(e.currentTarget.value, el.height) })}
          className="h-9 w-24"
        />
      </div>
      <div className="space-y-1.5">
        <span className="block text-sm leading-none font-medium">Alignment</span>
        <AlignGroup value={el.align} options={['left', 'center', 'right'] as const} onChange={(align) => set({ align })} />
      </div>
    </div>
  );
}

export function ImageEditor({ el, index, update }: { el: TImageElement; index: number; update: ElementUpdater }) {
  const id = useId();
  const set = (p: Partial<TImageElement>) => update((e) => (e.type === 'image' ? { ...e, ...p } : e));
  const { url, setUrl, urlError, uploading, fetching, fileRef, urlRef, applyUrl, onFile } = useImageSource(el, set);

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-url`}>Image URL</Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-url`}
              ref={urlRef}
              type="url"
              inputMode="url"
              placeholder="https://example.com/logo.png"
              value={url}
              aria-invalid={urlError ? true : undefined}
              aria-describedby={urlError ? `${id}-url-error` : undefined}
              onChange={(e) => setUrl(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  if (!fetching) void applyUrl();
                }
              }}
              className="h-9"
            />
            <Button variant="secondary" size="sm" className="h-9" onClick={() => void applyUrl()} disabled={fetching}>
              {fetching && <Loader2Icon className="animate-spin" aria-hidden />}
              {fetching ? 'Fetching...' : 'Use URL'}
            </Button>
          </div>
        </div>
        <div className="flex items-center gap-2">
          <span className="text-xs text-muted-foreground sm:hidden">or</span>
          <input
            ref={fileRef}
            id={`${id}-file`}
            type="file"
            accept={IMAGE_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <Button variant="outline" size="sm" className="h-9" disabled={uploading} onClick={() => fileRef.current?.click()}>
            {uploading ? <Loader2Icon className="animate-spin" /> : <ImageUpIcon />}
            {uploading ? 'Uploading...' : 'Upload image'}
          </Button>
        </div>
      </div>
      {urlError && (
        <p id={`${id}-url-error`} className="-mt-2 text-xs text-destructive" role="alert">
          {urlError}
        </p>
      )}
      <p className="-mt-2 text-xs text-muted-foreground">PNG, JPEG, GIF or WebP, up to 10 MB.</p>
      <ImageAltText el={el} index={index} set={set} />
      <ImageBoxFields id={id} el={el} set={set} />
      <div className="rounded-lg border bg-muted/30 p-3">
        <ImageView el={el} />
      </div>
    </div>
  );
}
