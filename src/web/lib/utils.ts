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

// Formatters are made on first use, not as the module loads: the first Intl object a page makes
// loads the locale's data, and at load that would lengthen the app's start on a phone.
let numberFormat: Intl.NumberFormat | undefined;
export function formatNumber(n: number): string {
  return (numberFormat ??= new Intl.NumberFormat('en-US')).format(n);
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

export function formatDate(iso: string | undefined, withTime = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...(withTime ? { hour: 'numeric', minute: '2-digit' } : {}),
  });
}
