import { CircleAlertIcon, GaugeIcon, Loader2Icon, PlayIcon, UploadIcon } from 'lucide-react';
import { useId, useRef } from 'react';
import { Link } from 'wouter';
import { batchDocumentName, ZFileNamePattern, type TBulkUpload } from '../../../contract/bulk';
import { fillNamePattern } from '../../../contract/documents';
import { textValues } from '../../../contract/filled-values';
import { findPlaceholderNames, placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { cn, formatNumber } from '../../lib/utils';
import { plural } from './job-status';

export type InvalidChoice = 'skip' | 'fix';

export function patternError(pattern: string): string | null {
  const parsed = ZFileNamePattern.safeParse(pattern);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter a file name pattern.');
}

function ChoiceCard({
  name,
  value,
  checked,
  title,
  children,
  onSelect,
}: {
  name: string;
  value: InvalidChoice;
  checked: boolean;
  title: string;
  children: React.ReactNode;
  onSelect: (value: InvalidChoice) => void;
}) {
  const id = `${name}-${value}`;
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked ? 'border-primary bg-primary-soft/60' : 'hover:bg-accent/50',
      )}
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onSelect(value)}
        className="mt-0.5 size-4 shrink-0 cursor-pointer accent-[var(--color-primary)]"
        aria-describedby={`${id}-text`}
      />
      <span className="min-w-0">
        <span className="block text-sm font-medium">{title}</span>
        <span id={`${id}-text`} className="mt-0.5 block text-sm text-muted-foreground">
          {children}
        </span>
      </span>
    </label>
  );
}

/** What happens to the rows with problems: skipped, or fixed in the file first. */
function InvalidRowsChoice({ draft, choice, onChoice }: { draft: TBulkUpload; choice: InvalidChoice | null; onChoice: (choice: InvalidChoice) => void }) {
  const groupName = useId();
  return (
    <fieldset className="space-y-2.5">
      <legend className="mb-2.5 text-sm font-medium">
        {plural(draft.invalidRows, 'row has', 'rows have')} problems. What should happen to {draft.invalidRows === 1 ? 'it' : 'them'}?
      </legend>
      <div className="grid gap-2.5 md:grid-cols-2">
        <ChoiceCard name={groupName} value="skip" checked={choice === 'skip'} title="Skip invalid rows" onSelect={onChoice}>
          Generate the {plural(draft.validRows, 'valid row')} now. The {plural(draft.invalidRows, 'row')} with problems {draft.invalidRows === 1 ? 'is' : 'are'}{' '}
          left out and listed in an error report you can download afterwards.
        </ChoiceCard>
        <ChoiceCard name={groupName} value="fix" checked={choice === 'fix'} title="Fix first" onSelect={onChoice}>
          Generate nothing yet. Correct the cells marked in red in your spreadsheet, save it, and upload it again. Nothing is counted against your plan until
          you start.
        </ChoiceCard>
      </div>
    </fieldset>
  );
}

interface FileNamePatternProps {
  draft: TBulkUpload;
  placeholders: readonly TPlaceholder[];
  formatName: string;
  documentNamePattern?: string;
  pattern: string;
  onPattern: (pattern: string) => void;
}

/** The PDFs' file names: the pattern, an example from the first valid row, and buttons that insert fields. */
function FileNamePattern({ draft, placeholders, formatName, documentNamePattern, pattern, onPattern }: FileNamePatternProps) {
  const patternId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const error = patternError(pattern);
  const known = new Set(['document', 'row', ...placeholders.map((p) => p.name)]);
  const unknown = findPlaceholderNames(pattern).filter((n) => !known.has(n));
  const sample = draft.preview.find((r) => Object.keys(r.errors).length === 0) ?? draft.preview[0];
  const example =
    sample && !error
      ? fillNamePattern(pattern, (name) =>
          name === 'document'
            ? batchDocumentName({ name: formatName, documentNamePattern, placeholders }, sample.row, sample.values, new Date().toISOString().slice(0, 10))
            : name === 'row'
              ? String(sample.row)
              : textValues(sample.values)[name],
        ) || 'document'
      : '';
  const tokens = ['document', 'row', ...placeholders.slice(0, 6).map((p) => p.name)];

  const insertToken = (name: string) => {
    const input = inputRef.current;
    const token = `{{${name}}}`;
    const start = input?.selectionStart ?? pattern.length;
    const end = input?.selectionEnd ?? pattern.length;
    const next = pattern.slice(0, start) + token + pattern.slice(end);
    onPattern(next);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={patternId}>PDF file names</Label>
      <Input
        ref={inputRef}
        id={patternId}
        value={pattern}
        onChange={(e) => onPattern(e.target.value)}
        maxLength={220}
        spellCheck={false}
        autoComplete="off"
        className="font-mono text-[13px]"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${patternId}-help${error ? ` ${patternId}-error` : ''}`}
      />
      {error && (
        <p id={`${patternId}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
      <div id={`${patternId}-help`} className="space-y-1.5 text-sm text-muted-foreground">
        <p>
          How the PDFs inside the ZIP are named. <code className="font-mono text-xs text-foreground">{'{{document}}'}</code> is the document name and{' '}
          <code className="font-mono text-xs text-foreground">{'{{row}}'}</code> its row in the spreadsheet; any field of the format works too.
        </p>
        {example && (
          <p data-testid="file-name-example">
            Example: <span className="font-medium break-all text-foreground">{example}.pdf</span>
          </p>
        )}
        {unknown.length > 0 && (
          <p className="flex items-start gap-1.5 text-[oklch(0.5_0.13_70)]">
            <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
            {unknown.map((n) => `{{${n}}}`).join(', ')} {unknown.length === 1 ? 'is' : 'are'} not a field of this format, so{' '}
            {unknown.length === 1 ? 'it stays' : 'they stay'} empty in every name.
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-1.5" aria-label="Insert a field into the pattern" role="group">
        {tokens.map((t) => {
          const p = placeholders.find((x) => x.name === t);
          return (
            <Button
              key={t}
              variant="outline"
              size="sm"
              className="h-7 px-2 font-mono text-xs"
              onClick={() => insertToken(t)}
              aria-label={`Insert ${p ? placeholderLabel(p) : t === 'row' ? 'row number' : 'document name'}`}
            >
              {`{{${t}}}`}
            </Button>
          );
        })}
      </div>
    </div>
  );
}

/** What the plan allows this month, and whether this batch fits. */
function QuotaNotice({ draft, quotaShort }: { draft: TBulkUpload; quotaShort: boolean }) {
  const { remaining, canMake } = draft.quota;
  if (quotaShort) {
    return (
      <Alert variant="destructive" data-testid="quota">
        <GaugeIcon />
        <AlertTitle>Not enough documents left this month</AlertTitle>
        <AlertDescription>
          <p>
            {remaining === 0
              ? `You have no documents left to make this month, so none of the ${plural(draft.validRows, 'valid row')} can be generated.`
              : `You can make ${plural(remaining, 'more document')} this month, so only ${formatNumber(canMake)} of the ${plural(draft.validRows, 'valid row')} could be generated.`}{' '}
            Starting is blocked until you remove rows from the file or upgrade your plan.
          </p>
          <Link href="/settings?tab=billing" className="font-medium text-destructive underline underline-offset-4">
            Compare plans
          </Link>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="quota">
      <GaugeIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        You can make {plural(remaining, 'more document')} this month.
        {draft.validRows > 0 && ` This batch uses ${formatNumber(Math.min(canMake, draft.validRows))}.`}
      </span>
    </p>
  );
}

/**
 * The last step before a batch starts: what to do with invalid rows, how the PDFs are named, what
 * the plan allows this month, and Start.
 */
export function StartPanel({
  draft,
  placeholders,
  formatName,
  documentNamePattern,
  choice,
  onChoice,
  pattern,
  onPattern,
  busy,
  starting,
  onStart,
  onReupload,
}: {
  draft: TBulkUpload;
  placeholders: readonly TPlaceholder[];
  formatName: string;
  /** The format's document-name pattern: the documents' names, and so `{{document}}` here. */
  documentNamePattern?: string;
  choice: InvalidChoice | null;
  onChoice: (choice: InvalidChoice) => void;
  pattern: string;
  onPattern: (pattern: string) => void;
  busy: boolean;
  starting: boolean;
  onStart: () => void;
  onReupload: () => void;
}) {
  const hasInvalid = draft.invalidRows > 0;
  const quotaShort = draft.validRows > 0 && draft.quota.canMake < draft.validRows;
  const error = patternError(pattern);

  let blocked: string | null = null;
  const unmappedRequired = placeholders.some((p) => p.required && draft.mapping[p.name] == null);
  if (draft.validRows === 0) {
    blocked = unmappedRequired
      ? 'No row is valid yet: choose a column for each required field in step 1.'
      : 'No row is valid, so there is nothing to generate. Fix the file and upload it again.';
  } else if (quotaShort)
    blocked = null; // explained by the quota alert
  else if (hasInvalid && choice === null) blocked = 'Choose what to do with the rows that have problems.';
  else if (error) blocked = 'Fix the file name pattern first.';

  const fixing = hasInvalid && choice === 'fix';
  const canStart = !blocked && !quotaShort && !fixing && !busy;

  return (
    <div className="space-y-6">
      {hasInvalid && draft.validRows > 0 && <InvalidRowsChoice draft={draft} choice={choice} onChoice={onChoice} />}

      <FileNamePattern
        draft={draft}
        placeholders={placeholders}
        formatName={formatName}
        documentNamePattern={documentNamePattern}
        pattern={pattern}
        onPattern={onPattern}
      />

      <QuotaNotice draft={draft} quotaShort={quotaShort} />

      <div className="flex flex-col gap-3 border-t pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {fixing
            ? 'Upload the corrected file when it is ready.'
            : (blocked ?? (quotaShort ? '' : 'Documents are generated in the background; you can leave this page.'))}
        </p>
        {fixing ? (
          <Button onClick={onReupload} className="sm:shrink-0">
            <UploadIcon aria-hidden /> Upload corrected file
          </Button>
        ) : (
          <Button onClick={onStart} disabled={!canStart} className="sm:shrink-0" data-testid="start-batch">
            {starting ? <Loader2Icon className="animate-spin" aria-hidden /> : <PlayIcon aria-hidden />}
            {starting ? 'Starting...' : draft.validRows > 0 ? `Generate ${plural(draft.validRows, 'document')}` : 'Generate documents'}
          </Button>
        )}
      </div>
    </div>
  );
}
