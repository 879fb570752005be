import { FileTextIcon } from 'lucide-react';
import type { TDocument } from '../../../contract/documents';
import { cn } from '../../lib/utils';
import { formatDate } from '../../lib/utils';
import { DocumentActions, DocumentBadges } from './document-actions';
import { IconTile } from '../../components/ui/icon-tile';

/**
 * Column template of a document list: with the format column (Recent Documents) or without (a
 * batch), and in a team with who made each document.
 */
export function documentGrid(withFormat: boolean, withMadeBy = false): string {
  // The maker gets a column of its own only where the name keeps its width; narrower, a line under the name.
  if (withFormat && withMadeBy)
    return 'md:grid-cols-[minmax(0,1fr)_170px_minmax(0,180px)_232px] xl:grid-cols-[minmax(0,1fr)_170px_minmax(0,140px)_minmax(0,120px)_232px]';
  return withFormat ? 'md:grid-cols-[minmax(0,1fr)_170px_minmax(0,180px)_232px]' : 'md:grid-cols-[minmax(0,1fr)_180px_232px]';
}

export function DocumentListHeader({ withFormat, withMadeBy = false, first = 'Document' }: { withFormat: boolean; withMadeBy?: boolean; first?: string }) {
  return (
    <div
      className={cn('hidden gap-4 border-b bg-muted/40 px-5 py-2.5 text-xs font-medium text-muted-foreground md:grid', documentGrid(withFormat, withMadeBy))}
      aria-hidden
    >
      <span>{first}</span>
      <span>Created</span>
      {withFormat && <span>Format</span>}
      {withMadeBy && <span className="hidden xl:block">Made by</span>}
      <span className="text-right">Actions</span>
    </div>
  );
}

/** One document in a list: name, badges, created time, format and maker (optional) and its actions. */
export function DocumentRow({
  document: d,
  withFormat,
  madeBy,
  deleting,
  onDelete,
}: {
  document: TDocument;
  withFormat: boolean;
  /** Who made it, in words (a team's list); undefined leaves the column out. */
  madeBy?: string;
  deleting: boolean;
  onDelete: () => void;
}) {
  const knownFormat = d.formatName && d.formatName !== 'Unknown';
  return (
    <li
      data-testid="document-row"
      className={cn('grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-3.5 sm:px-5', documentGrid(withFormat, madeBy !== undefined))}
    >
      <div className="flex min-w-0 items-center gap-3">
        <IconTile icon={FileTextIcon} tone="document" className="hidden sm:flex" />
        <div className="min-w-0">
          <p className={cn('line-clamp-2 text-sm font-medium break-words', madeBy === undefined && 'md:line-clamp-1')} title={d.name}>
            {d.name}
          </p>
          <div className="mt-0.5 flex flex-col text-xs text-muted-foreground md:hidden">
            <span>{formatDate(d.createdAt, true)}</span>
            {withFormat && <span className="truncate">Format: {d.formatName || 'Unknown'}</span>}
          </div>
          {madeBy !== undefined && <p className="truncate text-xs text-muted-foreground xl:hidden">Made by: {madeBy}</p>}
          <div className="mt-1 flex gap-1.5">
            <DocumentBadges status={d.status} />
          </div>
        </div>
      </div>
      <span className="hidden text-sm text-muted-foreground tabular-nums md:block">{formatDate(d.createdAt, true)}</span>
      {withFormat && (
        <span className={cn('hidden truncate text-sm md:block', knownFormat ? 'text-foreground' : 'text-muted-foreground italic')}>
          {d.formatName || 'Unknown'}
        </span>
      )}
      {madeBy !== undefined && (
        <span className="hidden truncate text-sm text-muted-foreground xl:block" title={madeBy}>
          {madeBy}
        </span>
      )}
      {/* Narrow screens: the actions get a line of their own, so the name keeps the width. */}
      <div className="col-span-2 -ml-2 flex items-center sm:col-span-1 sm:ml-0 sm:justify-end">
        <DocumentActions document={d} deleting={deleting} onDelete={onDelete} />
      </div>
    </li>
  );
}
