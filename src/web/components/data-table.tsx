import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../lib/utils';

export interface DataTableColumn {
  header: ReactNode;
  /** The header cell's classes (its padding and alignment match the body's cells). */
  className?: string;
  /** The column's width classes, for a fixed-layout table (a `<col>` each once any column has one). */
  width?: string;
}

/** A header on a tinted band, or one that stays in view while the table scrolls inside its box. */
const HEAD_STYLES = {
  banded: 'border-b bg-muted/40 text-left text-xs font-medium text-muted-foreground',
  sticky: 'sticky top-0 bg-background text-left text-xs text-muted-foreground',
} as const;

/**
 * A table's frame: the table, an optional screen-reader caption, a header row of column headers
 * (`scope="col"`) and a body for the caller's rows. The accessible name comes from `caption` or
 * from an `aria-label` passed through.
 */
export function DataTable({
  columns,
  caption,
  head = 'banded',
  headClassName,
  children,
  ...table
}: {
  columns: readonly DataTableColumn[];
  caption?: string;
  head?: keyof typeof HEAD_STYLES;
  /** Added to the header style. */
  headClassName?: string;
  children: ReactNode;
} & Omit<ComponentProps<'table'>, 'children'>) {
  return (
    <table {...table}>
      {caption && <caption className="sr-only">{caption}</caption>}
      {columns.some((column) => column.width !== undefined) && (
        <colgroup>
          {columns.map((column, i) => (
            <col key={i} className={column.width} />
          ))}
        </colgroup>
      )}
      <thead className={cn(HEAD_STYLES[head], headClassName)}>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col" className={column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y">{children}</tbody>
    </table>
  );
}
