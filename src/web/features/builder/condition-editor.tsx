import { EyeIcon, PlusIcon, XIcon } from 'lucide-react';
import { useId } from 'react';
import {
  CONDITION_OP_LABELS,
  CONDITION_OPS,
  describeShowIf,
  UNARY_CONDITION_OPS,
  type TCondition,
  type TConditionOp,
  type TShowIf,
} from '../../../contract/conditions';
import { MAX_CONDITIONS } from '../../../contract/conditions';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { CanvasBadge } from './canvas-badges';
import { NativeSelect } from './controls';
import { IconButton } from '../../components/ui/icon-button';

/** What a condition may ask of a field of this type. */
function opsFor(type: TPlaceholder['type'] | undefined): readonly TConditionOp[] {
  switch (type) {
    case 'checkbox':
      return ['equals'];
    case 'list':
      return ['is_not_empty', 'is_empty', 'greater_than', 'less_than', 'equals'];
    case 'number':
    case 'date':
    case 'formula':
      return ['equals', 'not_equals', 'greater_than', 'less_than', 'is_empty', 'is_not_empty'];
    case 'select':
      return ['equals', 'not_equals', 'one_of', 'is_empty', 'is_not_empty'];
    default:
      return CONDITION_OPS.filter((op) => op !== 'greater_than' && op !== 'less_than');
  }
}

function firstCondition(placeholders: readonly TPlaceholder[]): TCondition {
  const field = placeholders.find((p) => p.type === 'select' || p.type === 'checkbox') ?? placeholders[0];
  if (field?.type === 'checkbox') return { field: field.name, op: 'equals', value: 'true' };
  return { field: field?.name ?? '', op: 'equals', value: field?.type === 'select' ? (field.options[0] ?? '') : '' };
}

/** "Shown when plan = Premium": the badge an element with a condition carries on the canvas. */
export function ConditionBadge({ showIf, placeholders, className }: { showIf: TShowIf; placeholders: readonly TPlaceholder[]; className?: string }) {
  const text = describeShowIf(showIf, placeholders);
  return (
    <CanvasBadge icon={EyeIcon} tone="bg-[oklch(0.96_0.04_300)] text-[oklch(0.42_0.14_300)]" testId="condition-badge" title={text} className={className}>
      {text}
    </CanvasBadge>
  );
}

function ValueInput({
  condition,
  field,
  label,
  onChange,
}: {
  condition: TCondition;
  field: TPlaceholder | undefined;
  label: string;
  onChange: (next: Partial<TCondition>) => void;
}) {
  if (UNARY_CONDITION_OPS.includes(condition.op)) return null;
  if (field?.type === 'checkbox') {
    return (
      <NativeSelect aria-label={label} value={condition.value === 'false' ? 'false' : 'true'} onChange={(e) => onChange({ value: e.target.value })}>
        <option value="true">ticked</option>
        <option value="false">not ticked</option>
      </NativeSelect>
    );
  }
  if (condition.op === 'one_of') {
    return (
      <Input
        aria-label={label}
        className="h-8"
        value={(condition.values ?? []).join(', ')}
        placeholder="A, B, C"
        onChange={(e) => onChange({ values: e.target.value.split(',').map((v) => v.trim()) })}
      />
    );
  }
  if (field?.type === 'select' && (condition.op === 'equals' || condition.op === 'not_equals')) {
    return (
      <NativeSelect aria-label={label} value={condition.value ?? ''} onChange={(e) => onChange({ value: e.target.value })}>
        {!field.options.includes(condition.value ?? '') && <option value={condition.value ?? ''}>{condition.value || 'Choose…'}</option>}
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </NativeSelect>
    );
  }
  const numeric = field?.type === 'number' || field?.type === 'formula' || field?.type === 'list';
  return (
    <Input
      aria-label={label}
      className="h-8"
      type={field?.type === 'date' ? 'date' : 'text'}
      inputMode={numeric ? 'decimal' : undefined}
      placeholder={field?.type === 'list' ? 'rows' : numeric ? '0' : 'value'}
      value={condition.value ?? ''}
      onChange={(e) => onChange({ value: e.target.value })}
    />
  );
}

/**
 * "Show only when…": an element's (or a section's) condition on the placeholders. Every
 * condition (or any one) must hold for the element to print; otherwise it leaves no gap.
 */
export function ConditionEditor({
  showIf,
  placeholders,
  noun,
  onChange,
}: {
  showIf: TShowIf | undefined;
  placeholders: readonly TPlaceholder[];
  /** "element" or "section", for the sentence. */
  noun: string;
  onChange: (showIf: TShowIf | undefined) => void;
}) {
  const id = useId();
  const fields = placeholders;
  if (!showIf) {
    return (
      <div className="mt-3 flex flex-wrap items-center gap-2 border-t pt-3">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={fields.length === 0}
          onClick={() => onChange({ match: 'all', conditions: [firstCondition(fields)] })}
          title={fields.length === 0 ? 'Add a placeholder first: a condition reads one.' : undefined}
        >
          <EyeIcon aria-hidden /> Show only when…
        </Button>
        <span className="text-xs text-muted-foreground">Print this {noun} only for some documents.</span>
      </div>
    );
  }
  const set = (conditions: TCondition[]) => onChange(conditions.length === 0 ? undefined : { ...showIf, conditions });
  const update = (j: number, next: Partial<TCondition>) =>
    set(
      showIf.conditions.map((c, k) => {
        if (k !== j) return c;
        const merged = { ...c, ...next };
        // A new field starts with what its type can be asked.
        if (next.field !== undefined && next.field !== c.field) {
          const field = fields.find((p) => p.name === next.field);
          const op = opsFor(field?.type)[0] ?? 'equals';
          return { field: next.field, op, value: field?.type === 'checkbox' ? 'true' : field?.type === 'select' ? (field.options[0] ?? '') : '' };
        }
        if (next.op === 'one_of' && !merged.values) return { ...merged, values: merged.value ? [merged.value] : [] };
        return merged;
      }),
    );
  return (
    <fieldset
      className="mt-3 min-w-0 space-y-2 rounded-lg border border-[oklch(0.9_0.04_300)] bg-[oklch(0.985_0.01_300)] p-3"
      aria-labelledby={`${id}-legend`}
      data-testid="condition-editor"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span id={`${id}-legend`} className="font-medium">
          Show this {noun} only when
        </span>
        {showIf.conditions.length > 1 ? (
          <>
            <NativeSelect
              aria-label="Which conditions must hold"
              className="w-auto"
              value={showIf.match}
              onChange={(e) => onChange({ ...showIf, match: e.target.value as TShowIf['match'] })}
            >
              <option value="all">all</option>
              <option value="any">any</option>
            </NativeSelect>
            <span>of these hold:</span>
          </>
        ) : (
          <span>this holds:</span>
        )}
      </div>
      <ul className="space-y-2">
        {showIf.conditions.map((condition, j) => {
          const field = fields.find((p) => p.name === condition.field);
          const ops = opsFor(field?.type);
          return (
            <li
              key={j}
              className="grid grid-cols-[minmax(0,1fr)_auto] gap-1.5 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]"
              data-testid="condition-row"
            >
              <NativeSelect aria-label={`Condition ${j + 1}: field`} value={condition.field} onChange={(e) => update(j, { field: e.target.value })}>
                {!field && <option value={condition.field}>{condition.field || 'Choose a field'}</option>}
                {fields.map((p) => (
                  <option key={p.name} value={p.name}>
                    {placeholderLabel(p)}
                  </option>
                ))}
              </NativeSelect>
              <IconButton
                icon={XIcon}
                label={`Remove condition ${j + 1}`}
                tone="danger"
                className="sm:order-last"
                onClick={() => set(showIf.conditions.filter((_, k) => k !== j))}
              />
              <NativeSelect aria-label={`Condition ${j + 1}: test`} value={condition.op} onChange={(e) => update(j, { op: e.target.value as TConditionOp })}>
                {(ops.includes(condition.op) ? ops : [condition.op, ...ops]).map((op) => (
                  <option key={op} value={op}>
                    {field?.type === 'checkbox'
                      ? 'is'
                      : field?.type === 'list' && op === 'is_not_empty'
                        ? 'has rows'
                        : field?.type === 'list' && op === 'is_empty'
                          ? 'has no rows'
                          : CONDITION_OP_LABELS[op]}
                  </option>
                ))}
              </NativeSelect>
              <div className="col-span-2 sm:col-span-1">
                <ValueInput condition={condition} field={field} label={`Condition ${j + 1}: value`} onChange={(next) => update(j, next)} />
              </div>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={showIf.conditions.length >= MAX_CONDITIONS}
          onClick={() => set([...showIf.conditions, firstCondition(fields)])}
        >
          <PlusIcon aria-hidden /> Add condition
        </Button>
        <ConditionBadge showIf={showIf} placeholders={placeholders} />
      </div>
    </fieldset>
  );
}
