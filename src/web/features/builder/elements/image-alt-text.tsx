import { TriangleAlertIcon } from 'lucide-react';
import { useId } from 'react';
import { ZImageElement, type TImageElement } from '../../../../contract/format-content';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/utils';
import { WARNING_TONE } from '../controls';
import { fixField } from '../finding-targets';
import { useInsertableField } from '../insert-target';

const MAX_ALT_LENGTH = ZImageElement.shape.alt.unwrap().maxLength ?? undefined;

/**
 * What a tagged document gives screen readers for the image: its alternative text, or nothing at
 * all when it is decorative. An image with a source and neither is warned about here, where it is
 * fixed, as well as in the accessibility check.
 */
export function ImageAltText({ el, index, set }: { el: TImageElement; index: number; set: (p: Partial<TImageElement>) => void }) {
  const id = useId();
  // Only text counts: whitespace alone would read as nothing, and the save trims it away.
  const setAlt = (alt: string) => set({ alt: alt.trim() ? alt : undefined });
  const field = useInsertableField(`Image ${index + 1} alternative text`, setAlt, { inlineStyles: false });
  const decorative = el.decorative === true;
  const missing = el.src !== '' && !decorative && !el.alt?.trim();
  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-alt`}>Alternative text</Label>
        <Textarea
          id={`${id}-alt`}
          dir="auto"
          value={el.alt ?? ''}
          rows={2}
          maxLength={MAX_ALT_LENGTH}
          disabled={decorative}
          placeholder={decorative ? undefined : 'e.g. The Acme logo: a blue anchor'}
          aria-describedby={missing ? `${id}-hint ${id}-missing` : `${id}-hint`}
          onChange={(e) => setAlt(e.target.value)}
          className="min-h-16"
          {...fixField('image-alt')}
          {...field}
        />
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {decorative
            ? 'Screen readers skip a decorative image, so it needs no description.'
            : 'What the image shows, for readers who cannot see it. Placeholders like {{name}} are filled in.'}
        </p>
        {missing && (
          <p
            id={`${id}-missing`}
            className={cn('flex items-start gap-1.5 rounded-md border px-2.5 py-2 text-xs', WARNING_TONE)}
            data-testid="image-alt-missing"
          >
            <TriangleAlertIcon className="mt-px size-3.5 shrink-0" aria-hidden />
            <span>No alternative text yet: describe what the image shows, or mark it decorative if it adds nothing a reader needs.</span>
          </p>
        )}
      </div>
      <div className="flex items-center gap-2.5">
        <Switch id={`${id}-decorative`} checked={decorative} onCheckedChange={(on) => set({ decorative: on || undefined })} />
        <Label htmlFor={`${id}-decorative`} className="cursor-pointer">
          Decorative (screen readers skip it)
        </Label>
      </div>
    </div>
  );
}
