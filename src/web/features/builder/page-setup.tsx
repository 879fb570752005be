import { useId } from 'react';
import {
  MAX_HEADER_FOOTER_LENGTH,
  PAGE_COUNT_TOKEN,
  PAGE_NUMBER_TOKEN,
  type TFormatContent,
  type THeaderFooter,
  type TPageSetup,
} from '../../../contract/format-content';
import { LANGUAGES, languageName } from '../../../contract/languages';
import { DEFAULT_CURRENCY, DEFAULT_LOCALE } from '../../../contract/placeholders';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/utils';
import { NativeSelect, SectionTitle } from './controls';
import { useInsertableField } from './insert-target';

/** Currencies offered for `{{x | currency}}`; a format saved with another code keeps it. */
const CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'INR',
  'JPY',
  'CAD',
  'AUD',
  'NZD',
  'CHF',
  'CNY',
  'SGD',
  'HKD',
  'AED',
  'SAR',
  'ZAR',
  'BRL',
  'MXN',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
];

const DEFAULT_PAGE: TPageSetup = { size: 'A4', orientation: 'portrait', margins: { top: 20, right: 20, bottom: 20, left: 20 } };
const PAGE_NUMBERS = `Page ${PAGE_NUMBER_TOKEN} of ${PAGE_COUNT_TOKEN}`;

/**
 * Labels beside their fields where the panel has room (a phone's full width), above them where it
 * has not (the builder's side column at 1280 px), so no paper size or language is cut short.
 */
const FIELD_LABEL = 'text-xs font-medium text-muted-foreground @max-xs:not-first:mt-1.5';

type ContentUpdater = (fn: (c: TFormatContent) => TFormatContent) => void;

function withLine(c: TFormatContent, key: 'header' | 'footer', text: string): TFormatContent {
  const { [key]: existing, ...rest } = c;
  if (!text) return rest;
  const line: THeaderFooter = { ...(existing ?? { align: 'center' }), text };
  return { ...rest, [key]: line };
}

function LineInput({ label, value, onChange, placeholder }: { label: 'Header' | 'Footer'; value: string; onChange: (v: string) => void; placeholder: string }) {
  const id = useId();
  const field = useInsertableField(label, onChange);
  return (
    <>
      <label htmlFor={id} className={FIELD_LABEL}>
        {label}
      </label>
      <Input
        id={id}
        value={value}
        maxLength={MAX_HEADER_FOOTER_LENGTH}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        className="h-9"
        {...field}
      />
    </>
  );
}

export function PageSetup({ content, update }: { content: TFormatContent; update: ContentUpdater }) {
  const id = useId();
  // The builder hands it the content with the language it prints in (builder.tsx, inItsLanguage).
  const locale = content.locale ?? DEFAULT_LOCALE;
  const page = content.page ?? DEFAULT_PAGE;
  const setPage = (p: Partial<TPageSetup>) => update((c) => ({ ...c, page: { ...(c.page ?? DEFAULT_PAGE), ...p } }));
  const footer = content.footer?.text ?? '';
  return (
    <section aria-labelledby={`${id}-title`} className="@container">
      <SectionTitle>
        <span id={`${id}-title`}>Page</span>
      </SectionTitle>
      <div className="grid grid-cols-1 gap-1 @xs:grid-cols-[4.5rem_1fr] @xs:items-center @xs:gap-2">
        <label htmlFor={`${id}-size`} className={FIELD_LABEL}>
          Paper
        </label>
        <NativeSelect id={`${id}-size`} value={page.size} onChange={(e) => setPage({ size: e.target.value as TPageSetup['size'] })}>
          <option value="A4">A4 (210 × 297 mm)</option>
          <option value="Letter">US Letter (8.5 × 11 in)</option>
        </NativeSelect>
        <span className={FIELD_LABEL} id={`${id}-orientation`}>
          Orientation
        </span>
        <div role="radiogroup" aria-labelledby={`${id}-orientation`} className="grid grid-cols-2 gap-0.5 rounded-lg border bg-background p-0.5 shadow-xs">
          {(['portrait', 'landscape'] as const).map((o) => (
            <button
              key={o}
              type="button"
              role="radio"
              aria-checked={page.orientation === o}
              onClick={() => setPage({ orientation: o })}
              className={cn(
                'h-7 cursor-pointer rounded-md text-xs font-medium text-muted-foreground capitalize outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
                page.orientation === o && 'bg-primary-soft text-primary',
              )}
            >
              {o}
            </button>
          ))}
        </div>
        <label htmlFor={`${id}-currency`} className={FIELD_LABEL}>
          Currency
        </label>
        <NativeSelect
          id={`${id}-currency`}
          value={content.currency ?? DEFAULT_CURRENCY}
          onChange={(e) => update((c) => ({ ...c, currency: e.target.value }))}
          title="What {{amount | currency}} prints in"
        >
          {[...new Set([content.currency ?? DEFAULT_CURRENCY, ...CURRENCIES])].map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </NativeSelect>
        <label htmlFor={`${id}-language`} className={FIELD_LABEL}>
          Language
        </label>
        <NativeSelect
          id={`${id}-language`}
          value={locale}
          onChange={(e) => update((c) => ({ ...c, locale: e.target.value }))}
          title="Named in the PDF for screen readers; dates and numbers print in its style"
        >
          {[...new Set([locale, ...LANGUAGES])].map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)}
            </option>
          ))}
        </NativeSelect>
        <LineInput
          label="Header"
          value={content.header?.text ?? ''}
          placeholder="e.g. {{company_name}}"
          onChange={(v) => update((c) => withLine(c, 'header', v))}
        />
        <LineInput label="Footer" value={footer} placeholder={PAGE_NUMBERS} onChange={(v) => update((c) => withLine(c, 'footer', v))} />
      </div>
      <p className="mt-2 text-xs text-muted-foreground">
        Printed on every page. <code className="font-mono text-foreground">{PAGE_NUMBER_TOKEN}</code> and{' '}
        <code className="font-mono text-foreground">{PAGE_COUNT_TOKEN}</code> become page numbers.
        {!footer.includes(PAGE_NUMBER_TOKEN) && (
          <>
            {' '}
            <button
              type="button"
              className="cursor-pointer font-medium text-primary underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => update((c) => withLine(c, 'footer', footer ? `${footer} · ${PAGE_NUMBERS}` : PAGE_NUMBERS))}
            >
              Add page numbers
            </button>
          </>
        )}
      </p>
    </section>
  );
}
