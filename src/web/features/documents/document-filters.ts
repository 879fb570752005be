import type { TDocumentFilters } from '../../../contract/documents';
import { dayError } from '../../lib/day-filter';

/** Recent Documents' search and filters as they sit in the address, so a reload or a shared link keeps them. */
export const FILTER_PARAMS = { q: 'q', formatId: 'format', from: 'from', to: 'to', createdBy: 'by' } as const satisfies Record<keyof TDocumentFilters, string>;

export type TListFilters = { [K in keyof TDocumentFilters]-?: string };

export const NO_FILTERS: TListFilters = { q: '', formatId: '', from: '', to: '', createdBy: '' };

/** The filters the address holds; the member filter only in a team (a personal workspace has one maker). */
export function filtersOf(search: string, inTeam: boolean): TListFilters {
  const params = new URLSearchParams(search);
  const read = (key: keyof TDocumentFilters) => params.get(FILTER_PARAMS[key])?.trim() ?? '';
  // A day that is not one stays as written, for the page to say so (lib/day-filter.ts) rather
  // than list everything unasked; a range of real days given backwards is read the right way round.
  const day = (key: 'from' | 'to') => read(key).slice(0, 40);
  const real = (value: string) => value !== '' && dayError(value) === undefined;
  const [from, to] = real(day('from')) && real(day('to')) && day('from') > day('to') ? [day('to'), day('from')] : [day('from'), day('to')];
  return { q: read('q').slice(0, 200), formatId: read('formatId'), from, to, createdBy: inTeam ? read('createdBy') : '' };
}

/** The address's query with `filters` in it, other parameters (the team) kept. */
export function withFilters(search: string, filters: TListFilters): string {
  const params = new URLSearchParams(search);
  for (const key of Object.keys(FILTER_PARAMS) as (keyof TDocumentFilters)[]) {
    if (filters[key]) params.set(FILTER_PARAMS[key], filters[key]);
    else params.delete(FILTER_PARAMS[key]);
  }
  return params.toString();
}

/** A search or a filter other than the member: the list then finds documents, a batch's too, rather than browsing. */
export const isSearching = (f: TListFilters) => f.q !== '' || f.formatId !== '' || f.from !== '' || f.to !== '';

/** How many of the filters a phone folds away are in use, for its Filters button. */
export const activeFilterCount = (f: TListFilters) => [f.formatId, f.from, f.to].filter((v) => v !== '').length;
