import { SlidersHorizontalIcon, SparklesIcon } from 'lucide-react';
import { guessPlaceholderType } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { IconButton } from '../../components/ui/icon-button';
import { PLACEHOLDER_TYPE_LABELS } from './placeholder-form-values';

/**
 * Tags typed into the text that name no placeholder yet, each offered as a placeholder of the
 * type its name suggests: one click creates it, Details sets label, type, required and options.
 */
export function NewTagsBar({
  tags,
  onCreate,
  onDetails,
}: {
  tags: readonly string[];
  onCreate: (names: readonly string[]) => void;
  onDetails: (name: string) => void;
}) {
  if (tags.length === 0) return null;
  return (
    <section
      aria-label="New placeholders in your text"
      className="mb-3 rounded-lg border border-primary/25 bg-primary-soft/60 px-3 py-2.5 text-sm"
      data-testid="new-tags"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2 font-medium text-foreground">
          <SparklesIcon className="size-4 text-primary" aria-hidden />
          {tags.length === 1 ? 'Your text uses a placeholder that does not exist yet.' : `Your text uses ${tags.length} placeholders that do not exist yet.`}
        </p>
        {tags.length > 1 && (
          <Button size="sm" onClick={() => onCreate(tags)}>
            Create all {tags.length}
          </Button>
        )}
      </div>
      <ul className="mt-2 flex flex-wrap gap-2">
        {tags.map((tag) => {
          const type = PLACEHOLDER_TYPE_LABELS[guessPlaceholderType(tag)];
          return (
            <li key={tag} className="flex items-center gap-1.5 rounded-md border bg-background py-0.5 pr-0.5 pl-2 shadow-xs" data-testid="new-tag">
              <code className="font-mono text-[12.5px] break-all text-foreground">{`{{${tag}}}`}</code>
              <span className="text-xs text-muted-foreground">{type}</span>
              <Button size="sm" variant="ghost" className="h-7 px-2" onClick={() => onCreate([tag])} aria-label={`Create {{${tag}}} as ${type}`}>
                Create
              </Button>
              <IconButton icon={SlidersHorizontalIcon} label={`Details for {{${tag}}}`} onClick={() => onDetails(tag)} className="size-7" />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
