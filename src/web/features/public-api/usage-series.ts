import type { TApiUsageDay } from '../../../contract/api-usage';

/** What the chart draws, in the chart's and the table's order, with colours a reader can tell apart. */
export const USAGE_SERIES: { key: keyof TApiUsageDay; label: string; color: string; kind: 'bar' | 'line' }[] = [
  { key: 'ok', label: 'Succeeded (2xx)', color: '#16a34a', kind: 'bar' },
  { key: 'clientErrors', label: 'Client errors (4xx)', color: '#d97706', kind: 'bar' },
  { key: 'serverErrors', label: 'Server errors (5xx)', color: '#dc2626', kind: 'bar' },
  { key: 'documents', label: 'Documents generated', color: '#4f46e5', kind: 'line' },
];

/** "Nov 24" for 2026-11-24, read in UTC as the days are counted. */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
