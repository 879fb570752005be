import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Smoothly scrolls to an in-page section and moves keyboard focus there. */
export function scrollToSection(id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  // Sections laid out only when near the screen have estimated heights until then, and a smooth
  // scroll would stop short as they take their real ones on the way: lay them all out first.
  for (const section of document.querySelectorAll<HTMLElement>('[data-deferred-layout]')) section.style.contentVisibility = 'visible';
  el.scrollIntoView({ behavior: 'smooth', block: 'start' });
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
}

/*
 * The app's own figures and dates (English, en-US) are written here without Intl where that is
 * simple and exact: the first Intl object a page makes loads the locale's data, 20 ms for a number
 * and 50 ms for a date on a desktop (several times that on a phone), all in the task that draws the
 * dashboard. Anything less simple (fractions, huge numbers, dates with times) still goes to Intl,
 * whose formatters are made on first use and kept.
 */
let numberFormat: Intl.NumberFormat | undefined;
/** 1234567 → "1,234,567", as `Intl.NumberFormat('en-US')` writes it. */
export function formatNumber(n: number): string {
  if (Number.isSafeInteger(n)) return groupThousands(n);
  return (numberFormat ??= new Intl.NumberFormat('en-US')).format(n);
}

function groupThousands(n: number): string {
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
}

let sizeFormatter: Intl.NumberFormat | undefined;
/** Bytes as people read them: 0 KB, 740 KB, 12.5 MB, 1 GB. */
export function formatBytes(bytes: number): string {
  const sizeFormat = (sizeFormatter ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }));
  const kb = bytes / 1024;
  if (kb < 1024) return `${sizeFormat.format(Math.round(kb))} KB`;
  const mb = kb / 1024;
  if (mb < 1024) return `${sizeFormat.format(mb)} MB`;
  return `${sizeFormat.format(mb / 1024)} GB`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "Nov 25, 2026" (and ", 3:05 PM" with the time), in the reader's time zone, as en-US writes it. */
export function formatDate(iso: string | undefined, withTime = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const year = d.getFullYear();
  if (!withTime && year >= 1000 && year <= 9999) return `${MONTHS[d.getMonth()]} ${d.getDate()}, ${year}`;
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}),
  });
}
