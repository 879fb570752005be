import type { ComponentProps, ReactNode } from 'react';

export interface DataTableColumn {
  header: ReactNode;
  /** The header cell's classes (its padding and alignment match the body's cells). */
  className?: string;
  /** The column's width classes, for a fixed-layout table (a `<col>` each once any column has one). */
  width?: string;
}

/**
 * A table's frame: the table, an optional screen-reader caption, a header row of column headers
 * (`scope="col"`) and a body for the caller's rows. The accessible name comes from `caption` or
 * from an `aria-label` passed through.
 */
export function DataTable({
  columns,
  caption,
  headClassName,
  bodyClassName,
  children,
  ...table
}: {
  columns: readonly DataTableColumn[];
  caption?: string;
  headClassName?: string;
  bodyClassName?: string;
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
      <thead className={headClassName}>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col" className={column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={bodyClassName}>{children}</tbody>
    </table>
  );
}
