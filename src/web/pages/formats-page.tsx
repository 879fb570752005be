import { CalendarIcon, ClipboardPenLineIcon, CodeXmlIcon, EyeIcon, LayoutTemplateIcon, LockIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { LinkButton } from '../components/ui/link-button';
import { Link } from 'wouter';
import { EmptyStateCard } from '../components/layout/empty-state';
import { QueryState, SkeletonList } from '../components/query-state';
import { PageHeader } from '../components/layout/page-header';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Badge } from '../components/ui/badge';
import { FormatAllowanceNotice } from '../components/plan/upgrade';
import { useFormatAllowance } from '../hooks/use-format-allowance';
import { StartFromTemplateButton } from '../features/builder/starter-gallery';
import { useConfirmDelete } from '../features/documents/use-confirm-delete';
import { CopyToTeamButton } from '../features/teams/copy-to-team';
import { formatDate } from '../lib/utils';
import { useFormats } from '../features/formats/api';
import { CreateFirstFormatButton, formatEditHref, formatFillHref } from '../features/formats/format-actions';
import { FormatApiDialog, type TApiFormat } from '../features/formats/format-api-dialog';
import { IconTile } from '../components/ui/icon-tile';
import { useWorkspace } from '../hooks/use-workspace';
import { inSentence, useMadeBy } from '../features/teams/made-by';

export function FormatsPage() {
  const { data, isLoading, error } = useFormats();
  const formats = data ?? [];
  const { confirmDeleteFormat, pendingId, dialog } = useConfirmDelete();
  const allowance = useFormatAllowance();
  // A team member below editor fills formats in; making and changing them is for editors (route-roles.ts).
  const canEdit = useWorkspace().atLeast('editor');
  const madeBy = useMadeBy();
  const [apiFormat, setApiFormat] = useState<TApiFormat | null>(null);
  return (
    <>
      <PageHeader
        title="My Formats"
        description={
          canEdit
            ? 'Reusable templates with named placeholders. Fill one in to generate a PDF.'
            : 'The team’s templates. Fill one in to generate a PDF; the team’s editors create and change them.'
        }
        actions={
          canEdit && (
            <>
              <StartFromTemplateButton />
              <LinkButton href="/builder" icon={PlusIcon}>
                Create New Format
              </LinkButton>
            </>
          )
        }
      />
      {allowance?.atLimit && allowance.limit !== null && (
        <div className="mb-6 max-w-3xl">
          <FormatAllowanceNotice used={allowance.used} limit={allowance.limit} planName={allowance.planName} />
        </div>
      )}
      <QueryState
        query={{ isLoading, error }}
        loading={<SkeletonList count={3} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" itemClassName="h-32" />}
        errorText="Could not load your formats."
        isEmpty={formats.length === 0}
        empty={
          <EmptyStateCard
            icon={LayoutTemplateIcon}
            title="No formats yet"
            description={
              canEdit
                ? 'Start from a ready-made template, or build your own with headings, paragraphs, tables and {{placeholders}}: Formwork builds the form for you.'
                : 'The team has no formats yet. Its editors, admins and owners create them; they appear here to fill in.'
            }
            action={
              canEdit && (
                <div className="flex flex-wrap justify-center gap-2">
                  <StartFromTemplateButton variant="default" />
                  <CreateFirstFormatButton variant="outline" />
                </div>
              )
            }
          />
        }
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {formats.map((f) => (
            <Card key={f.id} className="group flex flex-col p-5 transition-[border-color,box-shadow] hover:border-primary/30" data-testid="format-card">
              <div className="flex items-start gap-3">
                <IconTile icon={LayoutTemplateIcon} size="lg" />
                <div className="min-w-0 flex-1">
                  <h2 className="truncate font-semibold" title={f.name}>
                    {f.name}
                  </h2>
                  <p className={`mt-1 line-clamp-2 text-sm ${f.description ? 'text-muted-foreground' : 'text-muted-foreground/70 italic'}`}>
                    {f.description || 'No description'}
                  </p>
                </div>
              </div>
              <div className="mt-4 mb-5 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs text-muted-foreground">
                <span className="inline-flex items-center gap-1">
                  <CalendarIcon className="size-3.5" aria-hidden /> Created {formatDate(f.createdAt)}
                </span>
                {madeBy && <span data-testid="format-made-by">by {inSentence(madeBy.nameOf(f.createdBy))}</span>}
                <Badge variant="secondary" className="text-[11px]">
                  {f.placeholders.length} {f.placeholders.length === 1 ? 'field' : 'fields'}
                </Badge>
                {f.readOnly && (
                  <Badge variant="outline" className="gap-1 text-[11px]" title="Beyond your plan's formats: it can be filled in, not edited.">
                    <LockIcon className="size-3" aria-hidden /> Read-only
                  </Badge>
                )}
              </div>
              <div className="mt-auto flex flex-wrap items-center gap-2 border-t pt-4">
                <LinkButton size="sm" href={formatFillHref(f.id)} icon={ClipboardPenLineIcon}>
                  Fill data
                </LinkButton>
                {canEdit && (
                  <Button variant="outline" size="sm" asChild>
                    <Link href={formatEditHref(f.id)}>
                      {f.readOnly ? (
                        <>
                          <EyeIcon /> View
                        </>
                      ) : (
                        <>
                          <PencilIcon /> Edit
                        </>
                      )}
                    </Link>
                  </Button>
                )}
                <div className="ml-auto flex items-center gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-muted-foreground"
                    onClick={() => setApiFormat(f)}
                    aria-label={`API details for ${f.name}`}
                    title="Format id and example data for the API"
                  >
                    <CodeXmlIcon /> API
                  </Button>
                  <CopyToTeamButton format={f} />
                  {canEdit && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                      onClick={() => confirmDeleteFormat(f)}
                      disabled={pendingId === f.id}
                      aria-label={`Delete ${f.name}`}
                    >
                      <Trash2Icon /> Delete
                    </Button>
                  )}
                </div>
              </div>
            </Card>
          ))}
        </div>
      </QueryState>
      {dialog}
      <FormatApiDialog format={apiFormat} onOpenChange={(open) => !open && setApiFormat(null)} />
    </>
  );
}
