import { PlusIcon, XIcon } from 'lucide-react';
import {
  CHECKED_MARK,
  COLUMN_TYPES,
  defaultPlaceholderLabel,
  DISPLAY_TYPES,
  guessNumberDisplay,
  isSigningPlaceholder,
  MAX_DISPLAY_DECIMALS,
  MAX_CHECKBOX_TEXT_LENGTH,
  MAX_LIST_COLUMNS,
  MAX_LIST_ROWS,
  MAX_SIGNER_ROLE,
  normalizePlaceholderName,
  PLACEHOLDER_TYPES,
  SIGNING_PLACEHOLDER_TYPES,
  signerLabel,
  UNCHECKED_MARK,
  type TColumnType,
  type TListColumn,
  type TPlaceholder,
  type TPlaceholderType,
} from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Textarea } from '../../components/ui/textarea';
import { cn } from '../../lib/utils';
import { NativeSelect } from './controls';
import { IconButton } from '../../components/ui/icon-button';
import { FormulaCheck, useFormulaCheck } from './formula-check';
import {
  newColumnKey,
  starterColumns,
  type ColumnDraft,
  type DisplayDraft,
  type PlaceholderFormValues,
  PLACEHOLDER_TYPE_LABELS,
} from './placeholder-form-values';

const DISPLAY_LABELS: Record<DisplayDraft, string> = { '': 'Plain', decimal: 'Decimal', currency: 'Currency', percent: 'Percent' };
const DISPLAY_DRAFTS = Object.keys(DISPLAY_LABELS) as DisplayDraft[];
const digits = (text: string) => text.replace(/\D/g, '').slice(0, 2);

/** The display a number or a formula gets when its type is chosen: the one its name suggests (`price` is money). */
function displayFor(type: TPlaceholderType, name: string, current: DisplayDraft): DisplayDraft {
  if (!DISPLAY_TYPES.includes(type) || current !== '') return current;
  const guessed = guessNumberDisplay(name, type);
  return guessed === 'plain' ? '' : guessed;
}

/** How a number or a formula prints: Plain, Decimal, Currency or Percent, and its decimal places. */
function DisplayFields({
  id,
  display,
  decimals,
  onChange,
}: {
  id: string;
  display: DisplayDraft;
  decimals: string;
  onChange: (next: { display?: DisplayDraft; decimals?: string }) => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-display`}>Display</Label>
        <NativeSelect id={`${id}-display`} value={display} onChange={(e) => onChange({ display: e.target.value as DisplayDraft })}>
          {DISPLAY_DRAFTS.map((d) => (
            <option key={d} value={d}>
              {DISPLAY_LABELS[d]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {display !== '' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-decimals`}>
            Decimal places{display !== 'decimal' && <span className="font-normal text-muted-foreground"> (optional)</span>}
          </Label>
          <Input
            id={`${id}-decimals`}
            inputMode="numeric"
            value={decimals}
            placeholder={display === 'decimal' ? '2' : 'auto'}
            aria-describedby={`${id}-decimals-hint`}
            className="h-9"
            onChange={(e) => onChange({ decimals: digits(e.target.value) })}
          />
          <p id={`${id}-decimals-hint`} className="sr-only">
            0 to {MAX_DISPLAY_DECIMALS}
          </p>
        </div>
      )}
    </div>
  );
}
/** The columns of a list being defined: name, type, required, and a formula's expression or a choice's options. */
function ColumnsEditor({
  id,
  values,
  placeholders,
  onChange,
  compact,
}: {
  id: string;
  values: Pick<PlaceholderFormValues, 'name' | 'columns'>;
  placeholders: readonly TPlaceholder[];
  onChange: (columns: ColumnDraft[]) => void;
  compact?: boolean;
}) {
  const columns = values.columns;
  const set = (j: number, next: Partial<ColumnDraft>) => onChange(columns.map((c, k) => (k === j ? { ...c, ...next } : c)));
  const listName = normalizePlaceholderName(values.name) || 'items';
  const parsedColumns: TListColumn[] = columns.map((c) => ({
    name: normalizePlaceholderName(c.name),
    type: c.type,
    required: c.required,
    options: c.options
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    ...(c.type === 'formula' ? { expression: c.expression } : {}),
  }));
  return (
    <div className="space-y-2" data-testid="columns-editor">
      <p className="text-sm font-medium">Columns</p>
      <ul className="space-y-2">
        {columns.map((c, j) => (
          <li key={c.key} className="space-y-1.5 rounded-md border bg-muted/20 p-2" data-testid="column-draft">
            <div className={cn('grid gap-1.5', compact ? 'grid-cols-[1fr_auto]' : 'grid-cols-[1fr_1fr_auto]')}>
              <Input aria-label={`Column ${j + 1} name`} value={c.name} placeholder="name" className="h-8" onChange={(e) => set(j, { name: e.target.value })} />
              {!compact && (
                <Input
                  aria-label={`Column ${j + 1} label`}
                  value={c.label}
                  placeholder={defaultPlaceholderLabel(normalizePlaceholderName(c.name)) || 'label'}
                  className="h-8"
                  onChange={(e) => set(j, { label: e.target.value })}
                />
              )}
              <IconButton icon={XIcon} label={`Remove column ${j + 1}`} tone="danger" onClick={() => onChange(columns.filter((_, k) => k !== j))} />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <NativeSelect
                aria-label={`Column ${j + 1} type`}
                className="w-auto min-w-28 flex-1"
                value={c.type}
                onChange={(e) => {
                  const type = e.target.value as TColumnType;
                  set(j, { type, display: displayFor(type, normalizePlaceholderName(c.name), c.display) });
                }}
              >
                {COLUMN_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {PLACEHOLDER_TYPE_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
              {DISPLAY_TYPES.includes(c.type) && (
                <>
                  <NativeSelect
                    aria-label={`Column ${j + 1} display`}
                    className="w-auto min-w-24"
                    value={c.display}
                    onChange={(e) => set(j, { display: e.target.value as DisplayDraft })}
                  >
                    {DISPLAY_DRAFTS.map((d) => (
                      <option key={d} value={d}>
                        {DISPLAY_LABELS[d]}
                      </option>
                    ))}
                  </NativeSelect>
                  {c.display !== '' && (
                    <Input
                      aria-label={`Column ${j + 1} decimal places`}
                      title="Decimal places"
                      inputMode="numeric"
                      value={c.decimals}
                      placeholder={c.display === 'decimal' ? '2 places' : 'places'}
                      className="h-8 w-20"
                      onChange={(e) => set(j, { decimals: digits(e.target.value) })}
                    />
                  )}
                </>
              )}
              {c.type !== 'formula' && (
                <label className="flex cursor-pointer items-center gap-1.5 text-xs font-medium">
                  <input
                    type="checkbox"
                    checked={c.required}
                    onChange={(e) => set(j, { required: e.target.checked })}
                    className="size-3.5 cursor-pointer accent-[var(--color-primary)]"
                  />
                  Required
                </label>
              )}
            </div>
            {c.type === 'select' && (
              <Input
                aria-label={`Column ${j + 1} options`}
                value={c.options}
                placeholder="Options, separated by commas"
                className="h-8"
                onChange={(e) => set(j, { options: e.target.value })}
              />
            )}
            {c.type === 'formula' && (
              <ColumnFormula
                id={`${id}-col-${j}`}
                label={`Column ${j + 1} formula`}
                expression={c.expression}
                self={normalizePlaceholderName(c.name)}
                placeholders={placeholders}
                list={{ name: listName, columns: parsedColumns }}
                onChange={(expression) => set(j, { expression })}
              />
            )}
          </li>
        ))}
      </ul>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={columns.length >= MAX_LIST_COLUMNS}
        onClick={() =>
          onChange([
            ...columns,
            { key: newColumnKey(), name: '', label: '', type: 'text', required: false, options: '', expression: '', display: '', decimals: '' },
          ])
        }
      >
        <PlusIcon aria-hidden /> Add column
      </Button>
    </div>
  );
}

function ColumnFormula({
  id,
  label,
  expression,
  self,
  placeholders,
  list,
  onChange,
}: {
  id: string;
  label: string;
  expression: string;
  self: string;
  placeholders: readonly TPlaceholder[];
  list: { name: string; columns: readonly TListColumn[] };
  onChange: (expression: string) => void;
}) {
  const check = useFormulaCheck(expression, self, placeholders, list);
  return (
    <>
      <Input
        aria-label={label}
        aria-describedby={`${id}-check`}
        value={expression}
        placeholder="e.g. qty * price"
        className="h-8 font-mono text-[12.5px]"
        onChange={(e) => onChange(e.target.value)}
      />
      <FormulaCheck check={check} id={`${id}-check`} />
    </>
  );
}

function TopFormula({
  id,
  expression,
  self,
  placeholders,
  onChange,
}: {
  id: string;
  expression: string;
  self: string;
  placeholders: readonly TPlaceholder[];
  onChange: (expression: string) => void;
}) {
  const check = useFormulaCheck(expression, self, placeholders);
  return (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-expression`}>Formula</Label>
      <Textarea
        id={`${id}-expression`}
        value={expression}
        rows={2}
        spellCheck={false}
        placeholder="e.g. round(subtotal * 0.18, 2)"
        aria-describedby={`${id}-check`}
        onChange={(e) => onChange(e.target.value)}
        className="min-h-16 font-mono text-[12.5px]"
      />
      <FormulaCheck check={check} id={`${id}-check`} />
    </div>
  );
}

const FILLED_TYPES = PLACEHOLDER_TYPES.filter((t) => !isSigningPlaceholder({ type: t }));
const SIGNER_ROLES = Array.from({ length: MAX_SIGNER_ROLE }, (_, i) => i + 1);

/** Type, Required and what the type needs: a choice's options, a checkbox's words, a formula, a list's columns. */
export function PlaceholderTypeFields({
  id,
  values,
  onChange,
  compact,
  placeholders,
}: {
  id: string;
  values: PlaceholderFormValues;
  onChange: (next: Partial<PlaceholderFormValues>) => void;
  compact?: boolean;
  /** The format's placeholders: what a formula may read. */
  placeholders: readonly TPlaceholder[];
}) {
  const signing = isSigningPlaceholder(values);
  const changeType = (type: TPlaceholderType) =>
    onChange({
      type,
      display: displayFor(type, normalizePlaceholderName(values.name), values.display),
      ...(type === 'list' && values.columns.length === 0 ? { columns: starterColumns() } : {}),
    });
  return (
    <>
      <div className={cn('grid grid-cols-[1fr_auto] items-end', compact ? 'gap-2' : 'gap-3')}>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-type`}>Type</Label>
          <NativeSelect id={`${id}-type`} value={values.type} onChange={(e) => changeType(e.target.value as TPlaceholderType)}>
            {FILLED_TYPES.map((t) => (
              <option key={t} value={t}>
                {PLACEHOLDER_TYPE_LABELS[t]}
              </option>
            ))}
            <optgroup label="Filled in when signing">
              {SIGNING_PLACEHOLDER_TYPES.map((t) => (
                <option key={t} value={t}>
                  {PLACEHOLDER_TYPE_LABELS[t]}
                </option>
              ))}
            </optgroup>
          </NativeSelect>
        </div>
        {signing ? (
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-signer`}>Signer</Label>
            <NativeSelect id={`${id}-signer`} value={String(values.signer)} onChange={(e) => onChange({ signer: Number(e.target.value) })}>
              {SIGNER_ROLES.map((role) => (
                <option key={role} value={role}>
                  {signerLabel(role)}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : (
          values.type !== 'formula' && (
            <label htmlFor={`${id}-required`} className="flex h-9 cursor-pointer items-center gap-2 text-sm font-medium">
              <input
                id={`${id}-required`}
                type="checkbox"
                checked={values.required}
                onChange={(e) => onChange({ required: e.target.checked })}
                className="size-4 cursor-pointer accent-[var(--color-primary)]"
              />
              Required
            </label>
          )
        )}
      </div>
      {values.type === 'select' && (
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-options`}>Options, one per line</Label>
          <Textarea
            id={`${id}-options`}
            value={values.options}
            rows={4}
            placeholder={'Full-time\nPart-time'}
            onChange={(e) => onChange({ options: e.target.value })}
            className={compact ? 'min-h-20' : undefined}
          />
        </div>
      )}
      {values.type === 'checkbox' && (
        <div className="grid grid-cols-2 gap-2">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-checked`}>Prints when ticked</Label>
            <Input
              id={`${id}-checked`}
              value={values.checkedText}
              maxLength={MAX_CHECKBOX_TEXT_LENGTH}
              placeholder={CHECKED_MARK}
              className="h-9"
              onChange={(e) => onChange({ checkedText: e.target.value })}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-unchecked`}>When not</Label>
            <Input
              id={`${id}-unchecked`}
              value={values.uncheckedText}
              maxLength={MAX_CHECKBOX_TEXT_LENGTH}
              placeholder={UNCHECKED_MARK}
              className="h-9"
              onChange={(e) => onChange({ uncheckedText: e.target.value })}
            />
          </div>
        </div>
      )}
      {values.type === 'formula' && (
        <TopFormula
          id={id}
          expression={values.expression}
          self={normalizePlaceholderName(values.name)}
          placeholders={placeholders}
          onChange={(expression) => onChange({ expression })}
        />
      )}
      {DISPLAY_TYPES.includes(values.type) && <DisplayFields id={id} display={values.display} decimals={values.decimals} onChange={onChange} />}
      {values.type === 'list' && (
        <>
          <ColumnsEditor id={id} values={values} placeholders={placeholders} compact={compact} onChange={(columns) => onChange({ columns })} />
          <div className="grid grid-cols-2 gap-2">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-min`}>Fewest rows</Label>
              <Input
                id={`${id}-min`}
                inputMode="numeric"
                value={values.minItems}
                placeholder="any"
                className="h-9"
                onChange={(e) => onChange({ minItems: e.target.value.replace(/\D/g, '') })}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-max`}>Most rows</Label>
              <Input
                id={`${id}-max`}
                inputMode="numeric"
                value={values.maxItems}
                placeholder={MAX_LIST_ROWS.toLocaleString('en-US')}
                className="h-9"
                onChange={(e) => onChange({ maxItems: e.target.value.replace(/\D/g, '') })}
              />
            </div>
          </div>
        </>
      )}
    </>
  );
}
