import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';
import { formatEnglishNumber } from '../../contract/text';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Marks a page section laid out only when it nears the screen (`content-visibility: auto`). */
export const DEFERRED_LAYOUT = 'data-deferred-layout';

/** Smoothly scrolls to an in-page section and moves keyboard focus there. */
export function scrollToSection(id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  // Sections laid out only when near the screen have estimated heights until then, and a smooth
  // scroll would stop short as they take their real ones on the way: lay them all out first.
  for (const section of document.querySelectorAll<HTMLElement>(`[${DEFERRED_LAYOUT}]`)) section.style.contentVisibility = 'visible';
  el.scrollIntoView({ behavior: 'smooth', block: 'start' });
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({ preventScroll: true });
}

/** 1234567 → "1,234,567", as `Intl.NumberFormat('en-US')` writes it (without loading its data for a whole number). */
export const formatNumber = formatEnglishNumber;

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

/*
 * A day is written here, exactly as Intl's en-US writes it, for the same reason as whole numbers
 * (`formatEnglishNumber`): the page's first Intl date format loads the locale's data, 50 ms on a
 * desktop and several times that on a phone, in the task that draws the dashboard's lists.
 */
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
