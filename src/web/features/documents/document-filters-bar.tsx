import { SearchIcon, SlidersHorizontalIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { FIRST_DAY, LAST_DAY } from '../../../contract/dates';
import type { TDayErrors } from '../../lib/day-filter';
import { cn } from '../../lib/utils';
import { useFormats } from '../formats/api';
import { activeFilterCount, type TListFilters } from './document-filters';

/** A team's members for the Made by filter (the teams feature's TMadeBy fits it). */
type TMemberChoice = { members: readonly { userId: string; name: string }[]; meId: string | undefined };

/** How long typing may pause before the list is searched. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The search box: typed text reaches the list (and the address) once typing pauses. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  // The address can change without typing (Clear filters, Back): the box follows it.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="relative min-w-0 flex-1">
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input
        type="search"
        aria-label="Search documents"
        placeholder="Search by name, client or format"
        maxLength={200}
        className="pl-9"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </div>
  );
}

function Field({
  label,
  children,
  id,
  className,
  error,
}: {
  label: string;
  id: string;
  children: React.ReactNode;
  className?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <div className={cn('grid min-w-0 content-start gap-1.5', className)}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-xs text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A day field that says what is wrong with its day, under it and to a screen reader. */
function DayInput({
  id,
  value,
  min,
  max,
  error,
  onChange,
}: {
  id: string;
  value: string;
  min: string;
  max: string;
  error: string | undefined;
  onChange: (day: string) => void;
}) {
  return (
    <Input
      id={id}
      type="date"
      value={value}
      min={min}
      max={max}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * Recent Documents' search and filters: format, a range of days and, in a team, the member. On a
 * phone format and days fold behind a button that counts the filters in use; the search box stays in sight.
 */
export function DocumentFiltersBar({
  filters,
  onChange,
  madeBy,
  dayErrors = {},
}: {
  filters: TListFilters;
  onChange: (filters: TListFilters) => void;
  madeBy: TMemberChoice | null;
  /** What is wrong with From or To: ours before sending, or the server's when it refused them. */
  dayErrors?: TDayErrors;
}) {
  const id = useId();
  const formats = useFormats();
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(filters);
  // On a phone, format and days fold away until asked for; the member, a team's usual filter, stays.
  // A day that needs fixing keeps them open, where its message is.
  const unfolded = open || Boolean(dayErrors.from || dayErrors.to);
  const folded = unfolded ? undefined : 'max-sm:hidden';
  const set = (patch: Partial<TListFilters>) => onChange({ ...filters, ...patch });
  const knownFormat = filters.formatId === '' || (formats.data ?? []).some((f) => f.id === filters.formatId);
  const knownMember = filters.createdBy === '' || !madeBy || madeBy.members.some((m) => m.userId === filters.createdBy);
  return (
    <div role="search" aria-label="Find documents" className="mb-4 grid gap-3">
      <div className="flex gap-2">
        <SearchBox value={filters.q} onSearch={(q) => set({ q })} />
        <Button variant="outline" className="sm:hidden" aria-expanded={unfolded} aria-controls={`${id}-filters`} onClick={() => setOpen((o) => !o)}>
          <SlidersHorizontalIcon aria-hidden />
          Filters{count > 0 ? ` (${count})` : ''}
        </Button>
      </div>
      <div id={`${id}-filters`} className={cn('grid gap-3 sm:grid-cols-2', madeBy ? 'lg:grid-cols-4' : 'lg:grid-cols-3')}>
        {madeBy && (
          <Field label="Made by" id={`${id}-by`}>
            <NativeSelect id={`${id}-by`} value={filters.createdBy} onChange={(e) => set({ createdBy: e.target.value })}>
              <option value="">Everyone</option>
              {madeBy.members.map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.userId === madeBy.meId ? 'You' : m.name}
                </option>
              ))}
              {/* A link to someone who has left the team since still shows what it names. */}
              {!knownMember && <option value={filters.createdBy}>Former member</option>}
            </NativeSelect>
          </Field>
        )}
        <Field label="Format" id={`${id}-format`} className={folded}>
          <NativeSelect id={`${id}-format`} value={filters.formatId} onChange={(e) => set({ formatId: e.target.value })}>
            <option value="">All formats</option>
            {(formats.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
            {/* A link to a format deleted since still shows that it filters. */}
            {!knownFormat && <option value={filters.formatId}>Deleted format</option>}
          </NativeSelect>
        </Field>
        <div className={cn('grid grid-cols-2 gap-3 sm:col-span-2', folded)}>
          <Field label="From" id={`${id}-from`} error={dayErrors.from}>
            <DayInput
              id={`${id}-from`}
              value={filters.from}
              min={FIRST_DAY}
              max={filters.to && !dayErrors.to ? filters.to : LAST_DAY}
              error={dayErrors.from}
              onChange={(from) => set({ from })}
            />
          </Field>
          <Field label="To" id={`${id}-to`} error={dayErrors.to}>
            <DayInput
              id={`${id}-to`}
              value={filters.to}
              min={filters.from && !dayErrors.from ? filters.from : FIRST_DAY}
              max={LAST_DAY}
              error={dayErrors.to}
              onChange={(to) => set({ to })}
            />
          </Field>
        </div>
      </div>
    </div>
  );
}
