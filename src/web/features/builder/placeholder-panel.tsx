import { AlertTriangleIcon, BracesIcon, CornerDownLeftIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { formulaProblem } from '../../../contract/format-logic';
import {
  defaultPlaceholderLabel,
  isSigningPlaceholder,
  normalizePlaceholderName,
  placeholderLabel,
  signerLabel,
  type TPlaceholder,
} from '../../../contract/placeholders';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../hooks/use-toast';
import { cn } from '../../lib/utils';
import { SectionTitle, WARNING_TONE } from './controls';
import { IconButton } from '../../components/ui/icon-button';
import { useInsertTarget } from './insert-target';
import type { PlaceholderUsage } from './model';
import { emptyFormValues, PLACEHOLDER_TYPE_LABELS } from './placeholder-form-values';
import { PlaceholderNameHint } from './placeholder-name-hint';
import { usePlaceholderForm } from './use-placeholder-form';
import { PlaceholderTypeFields } from './placeholder-type-fields';

/** A formula in the list: what it computes, or that it has a problem. */
function FormulaLine({ placeholder, placeholders }: { placeholder: TPlaceholder; placeholders: readonly TPlaceholder[] }) {
  const problem = formulaProblem(placeholder.expression, placeholders, undefined, placeholder.name);
  return (
    <p
      className={cn('mt-1 truncate font-mono text-[11px] [contain:inline-size]', problem ? 'text-destructive' : 'text-muted-foreground')}
      title={problem ?? placeholder.expression}
    >
      {problem ? `Problem: ${problem}` : `= ${placeholder.expression ?? ''}`}
    </p>
  );
}

/** The New placeholder form's values, and adding the placeholder they describe. */
function useNewPlaceholder(placeholders: readonly TPlaceholder[], onAdd: (p: TPlaceholder) => void) {
  const { form, values, change, error, submit } = usePlaceholderForm(emptyFormValues, new Set(placeholders.map((p) => p.name)));
  const canAdd = values.name.trim().length > 0;
  const add = submit(({ placeholder }) => {
    onAdd(placeholder);
    toast({ title: 'Placeholder Added', description: `Insert {{${placeholder.name}}} into your text where the value should go.` });
    form.reset(emptyFormValues());
  });

  return { values, error, change, canAdd, submit: (event: FormEvent) => (canAdd ? void add(event) : event.preventDefault()) };
}

/** Name, label and type of a new placeholder; Add puts it in the list. */
function NewPlaceholderForm({ id, form, placeholders }: { id: string; form: ReturnType<typeof useNewPlaceholder>; placeholders: TPlaceholder[] }) {
  const { values, error, change, canAdd, submit } = form;
  const { name, label } = values;
  const normalized = normalizePlaceholderName(name);
  return (
    <form onSubmit={submit} data-own-undo className="space-y-2.5 rounded-lg border bg-background p-3 shadow-xs" aria-label="New placeholder">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={name}
          placeholder="e.g. client_name"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-name-hint`}
          onChange={(e) => change({ name: e.target.value })}
          className="h-9"
        />
        <PlaceholderNameHint id={`${id}-name-hint`} error={error} normalized={normalized} lead="Use as" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-label`}>
          Label <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={`${id}-label`}
          value={label}
          placeholder={normalized ? defaultPlaceholderLabel(normalized) : 'Shown on the form'}
          onChange={(e) => change({ label: e.target.value })}
          className="h-9"
        />
      </div>
      <PlaceholderTypeFields id={id} values={values} onChange={change} compact placeholders={placeholders} />
      <Button type="submit" size="sm" className="w-full" disabled={!canAdd}>
        <PlusIcon /> Add placeholder
      </Button>
    </form>
  );
}

/** Placeholders no element uses, and tags in the text that match no placeholder. */
function PlaceholderWarnings({ unused, unknownTags, onCreate }: { unused: TPlaceholder[]; unknownTags: readonly string[]; onCreate: (tag: string) => void }) {
  if (unused.length === 0 && unknownTags.length === 0) return null;
  return (
    <div className={cn('mt-3 space-y-2 rounded-lg border p-3 text-xs', WARNING_TONE)} role="status" data-testid="placeholder-warnings">
      {unused.length > 0 && (
        <p className="flex gap-2">
          <AlertTriangleIcon className="mt-px size-3.5 shrink-0" aria-hidden />
          <span>
            Not used in the format yet: {unused.map((p) => `{{${p.name}}}`).join(', ')}. The form will still ask for {unused.length === 1 ? 'it' : 'them'}.
          </span>
        </p>
      )}
      {unknownTags.map((tag) => (
        <div key={tag} className="flex items-start gap-2">
          <AlertTriangleIcon className="mt-px size-3.5 shrink-0" aria-hidden />
          <span className="min-w-0 flex-1">
            <code className="font-mono font-semibold break-all">{`{{${tag}}}`}</code> matches no placeholder and will print empty.
          </span>
          <button
            type="button"
            className="shrink-0 cursor-pointer rounded font-semibold underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => onCreate(tag)}
          >
            Create
          </button>
        </div>
      ))}
    </div>
  );
}

interface PlaceholderItemProps {
  placeholder: TPlaceholder;
  count: number;
  placeholders: readonly TPlaceholder[];
  onInsert: (p: TPlaceholder) => void;
  onEdit: (p: TPlaceholder) => void;
  onDelete: (name: string) => void;
}

/** One placeholder in the list: its tag, label, type and use, with Insert, Edit and Delete. */
function PlaceholderItem({ placeholder: p, count, placeholders, onInsert, onEdit, onDelete }: PlaceholderItemProps) {
  return (
    <li key={p.name} className="flex items-center gap-2 px-2.5 py-2" data-testid="placeholder-item">
      <div className="min-w-0 flex-1">
        <p className="truncate font-mono text-[12.5px] font-medium text-foreground">{`{{${p.name}}}`}</p>
        <div className="mt-1 flex flex-wrap items-center gap-1">
          <span className="max-w-full truncate text-xs text-muted-foreground">{placeholderLabel(p)}</span>
          <Badge variant="secondary" className="px-1.5 py-0 text-[10.5px]">
            {PLACEHOLDER_TYPE_LABELS[p.type]}
          </Badge>
          {isSigningPlaceholder(p) && (
            <Badge variant="soft" className="px-1.5 py-0 text-[10.5px]" data-testid="placeholder-signer">
              {signerLabel(p.signer)}
            </Badge>
          )}
          {p.required && (
            <Badge variant="soft" className="px-1.5 py-0 text-[10.5px]">
              required
            </Badge>
          )}
          {count === 0 ? (
            <Badge className="border-transparent bg-[oklch(0.96_0.05_85)] px-1.5 py-0 text-[10.5px] text-[oklch(0.45_0.1_60)]">unused</Badge>
          ) : (
            <Badge variant="success" className="px-1.5 py-0 text-[10.5px]" data-testid="placeholder-uses">
              used {count}×
            </Badge>
          )}
        </div>
        {p.type === 'select' && p.options.length > 0 && (
          <p className="mt-1 truncate text-[11px] text-muted-foreground" title={p.options.join(', ')}>
            {p.options.join(' · ')}
          </p>
        )}
        {p.type === 'list' && (
          <p
            className="mt-1 truncate text-[11px] text-muted-foreground [contain:inline-size]"
            title={(p.columns ?? []).map((c) => c.name).join(', ')}
            data-testid="list-columns"
          >
            Columns: {(p.columns ?? []).map((c) => c.name).join(' · ') || 'none'}
          </p>
        )}
        {p.type === 'formula' && <FormulaLine placeholder={p} placeholders={placeholders} />}
      </div>
      {p.type !== 'list' && (
        <IconButton icon={CornerDownLeftIcon} label={`Insert {{${p.name}}}`} onMouseDown={(e) => e.preventDefault()} onClick={() => onInsert(p)} />
      )}
      <IconButton icon={PencilIcon} label={`Edit placeholder ${p.name}`} onClick={() => onEdit(p)} />
      <IconButton icon={Trash2Icon} label={`Delete placeholder ${p.name}`} tone="danger" onClick={() => onDelete(p.name)} />
    </li>
  );
}

export function PlaceholderPanel({
  placeholders,
  usage,
  onAdd,
  onEdit,
  onDelete,
}: {
  placeholders: TPlaceholder[];
  usage: PlaceholderUsage;
  onAdd: (p: TPlaceholder) => void;
  onEdit: (p: TPlaceholder) => void;
  onDelete: (name: string) => void;
}) {
  const id = useId();
  const form = useNewPlaceholder(placeholders, onAdd);
  const insertTarget = useInsertTarget();

  const insert = (p: TPlaceholder) => {
    if (!insertTarget.insert(`{{${p.name}}}`)) {
      toast({
        title: 'Choose where to insert',
        description: 'Click into a heading, paragraph, list item or table cell first, then insert the placeholder.',
      });
    }
  };

  const unused = placeholders.filter((p) => (usage.counts.get(p.name) ?? 0) === 0);

  return (
    <section aria-labelledby={`${id}-title`} data-testid="placeholder-panel">
      <SectionTitle hint={placeholders.length > 0 ? `${placeholders.length} defined` : undefined}>
        <span id={`${id}-title`}>Placeholders</span>
      </SectionTitle>

      <NewPlaceholderForm id={id} form={form} placeholders={placeholders} />

      <PlaceholderWarnings
        unused={unused}
        unknownTags={usage.unknownTags}
        onCreate={(tag) => {
          form.change({ name: tag });
          document.getElementById(`${id}-name`)?.focus();
        }}
      />

      {placeholders.length === 0 ? (
        <div className="mt-3 flex items-center gap-2.5 rounded-lg border border-dashed px-3 py-3 text-xs text-muted-foreground">
          <BracesIcon className="size-4 shrink-0" aria-hidden />
          No placeholders yet. Each one becomes a field on the generated form.
        </div>
      ) : (
        <>
          <p className="mt-3 mb-1.5 text-xs text-muted-foreground" aria-live="polite">
            {insertTarget.targetLabel ? (
              <>
                Insert goes into <span className="font-medium text-foreground">{insertTarget.targetLabel}</span>
              </>
            ) : (
              'Click into a text on the canvas, then Insert.'
            )}
          </p>
          <ul className="divide-y rounded-lg border bg-background shadow-xs" aria-label="Placeholders" data-testid="placeholder-list">
            {placeholders.map((p) => (
              <PlaceholderItem
                key={p.name}
                placeholder={p}
                count={usage.counts.get(p.name) ?? 0}
                placeholders={placeholders}
                onInsert={insert}
                onEdit={onEdit}
                onDelete={onDelete}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
