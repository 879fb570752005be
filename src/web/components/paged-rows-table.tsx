import type { ComponentProps, ReactNode } from 'react';
import { DataTable, type DataTableColumn } from './data-table';
import { QueryState, SkeletonList, type QueryStatus } from './query-state';
import { Pager } from './ui/pager';

/**
 * A card's table of rows one page at a time (a batch's row errors, a mail merge's rows): grey rows
 * while the first page loads, the message where the table would be if it fails, then the table
 * edge to edge with its pager under it.
 */
export function PagedRowsTable({
  query,
  skeletonRows,
  skeletonClassName,
  errorText,
  testId,
  columns,
  pager,
  children,
}: {
  query: QueryStatus & { isFetching: boolean };
  skeletonRows: number;
  skeletonClassName: string;
  errorText: string;
  testId: string;
  columns: readonly DataTableColumn[];
  pager: Omit<ComponentProps<typeof Pager>, 'busy'>;
  children: ReactNode;
}) {
  return (
    <QueryState
      query={query}
      loading={<SkeletonList count={skeletonRows} className="space-y-2 px-5 pb-5" itemClassName={skeletonClassName} />}
      errorText={errorText}
      errorClassName="px-5 pb-5"
    >
      <div className="overflow-x-auto">
        <DataTable className="w-full text-sm" data-testid={testId} headClassName="border-t" columns={columns}>
          {children}
        </DataTable>
      </div>
      <Pager {...pager} busy={query.isFetching} />
    </QueryState>
  );
}
