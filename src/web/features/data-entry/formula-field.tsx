import { SigmaIcon } from 'lucide-react';
import { useMemo } from 'react';
import { printLike } from '../../../contract/filled-values';
import type { TFormatContent } from '../../../contract/format-content';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';

/** A formula on the form: its value, computed as the person types, read-only, printed as the document prints it. */
export function FormulaField({
  placeholder,
  index,
  value,
  problem,
  content,
}: {
  placeholder: TPlaceholder;
  index: number;
  value: string;
  /** Why it cannot be computed yet (a division by zero), if so. */
  problem: string | undefined;
  content: Pick<TFormatContent, 'elements' | 'header' | 'footer' | 'locale' | 'currency'>;
}) {
  const id = `field-${index}`;
  const print = useMemo(() => printLike(content, placeholder.name), [content, placeholder.name]);
  const shown = print(value, placeholder);
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid={`field-${placeholder.name}`}>
      <label htmlFor={id} className="flex items-center gap-1.5 text-sm font-medium">
        {placeholderLabel(placeholder)}
        <span className="inline-flex items-center gap-1 rounded-full bg-secondary px-1.5 py-px text-[10.5px] font-medium text-secondary-foreground">
          <SigmaIcon className="size-3" aria-hidden /> computed
        </span>
      </label>
      <input
        id={id}
        readOnly
        value={shown === '' ? '' : shown}
        placeholder="Fill in the fields it uses"
        title={placeholder.expression}
        aria-describedby={problem ? `${id}-problem` : `${id}-how`}
        className="flex h-10 w-full min-w-0 cursor-default rounded-md border border-dashed border-input bg-muted/50 px-3 py-2 text-sm font-semibold tabular-nums text-foreground outline-none placeholder:font-normal placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring"
        data-testid="computed-value"
      />
      {problem ? (
        <p id={`${id}-problem`} className="text-[13px] text-destructive">
          {problem}
        </p>
      ) : (
        <p id={`${id}-how`} className="truncate font-mono text-[11.5px] text-muted-foreground" title={placeholder.expression}>
          = {placeholder.expression}
        </p>
      )}
    </div>
  );
}
