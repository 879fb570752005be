import {
  ArrowRightIcon,
  BookOpenIcon,
  ClockIcon,
  FileTextIcon,
  FileUpIcon,
  ClipboardPenLineIcon,
  LayoutTemplateIcon,
  Loader2Icon,
  PencilIcon,
  PlusIcon,
  Trash2Icon,
  ZapIcon,
  type LucideIcon,
} from 'lucide-react';
import { Suspense, useDeferredValue, type ReactNode } from 'react';
import { Link } from 'wouter';
import { EmptyState } from '../components/layout/empty-state';
import { QueryState, SkeletonList, type QueryStatus } from '../components/query-state';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { useAuth } from '../hooks/use-auth';
import { useDocumentTitle } from '../hooks/use-document-title';
import { readApiError } from '../lib/api';
import { effectiveLimit } from '../lib/plans';
import { useFormatAllowance } from '../hooks/use-format-allowance';
import { RenewalNotice } from '../features/billing/renewal-notice';
import { formatNumber } from '../lib/utils';
import { DocumentActions, DocumentBadges } from '../features/documents/document-actions';
import { IconAction } from '../features/documents/icon-action';
import { useConfirmDelete } from '../features/documents/use-confirm-delete';
import { useStats } from '../hooks/use-stats';
import { formatDate } from '../lib/utils';
import { useRecentDocuments } from '../features/documents/api';
import { useFormats } from '../features/formats/api';
import { inSentence, useMadeBy } from '../features/teams/made-by';
import { CreateFirstFormatButton, formatEditHref, formatFillHref } from '../features/formats/format-actions';
import { IMPORT_ACCEPT } from '../../contract/template-import-files';
import { useWorkspace } from '../hooks/use-workspace';
import { useTemplateImport } from '../features/template-import/import-template';
import { StarterGallery } from '../features/builder/lazy-starter-gallery';
import { IconTile } from '../components/ui/icon-tile';

/** The dashboard lists at most 3 formats and 3 documents (docs/decisions.md). */
export const DASHBOARD_LIST_SIZE = 3;

/** Minutes a person saves per generated document: the basis of the Time Saved estimate. */
export const MINUTES_SAVED_PER_DOCUMENT = 10;

export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = minutes / 60;
  return `${hours >= 10 ? Math.round(hours) : Math.round(hours * 10) / 10} h`;
}

function StatCard({ label, value, hint, icon: Icon, loading }: { label: string; value: ReactNode; hint: ReactNode; icon: LucideIcon; loading: boolean }) {
  return (
    <Card className="p-4 sm:p-5" data-testid="stat-card">
      <div className="flex items-center gap-2 text-muted-foreground">
        <Icon className="size-4 shrink-0 text-primary" aria-hidden />
        <p className="line-clamp-2 text-[13px] leading-tight font-medium sm:text-sm">{label}</p>
      </div>
      <div className="mt-3 text-2xl leading-none font-semibold tracking-tight text-foreground tabular-nums sm:text-[28px]">
        {loading ? <Skeleton className="h-7 w-16" /> : value}
      </div>
      <p className="mt-2 text-xs text-muted-foreground">{hint}</p>
    </Card>
  );
}

const QUICK_ACTION_CLASS =
  'group flex items-center gap-4 rounded-lg border bg-background p-4 text-left shadow-xs transition-[border-color,box-shadow] hover:border-primary/40 hover:shadow-card focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

function QuickActionBody({ icon: Icon, title, description, busy }: { icon: LucideIcon; title: string; description: string; busy?: boolean }) {
  return (
    <>
      <IconTile icon={Icon} size="lg" />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-semibold text-foreground">{title}</span>
        <span className="block text-sm text-muted-foreground">{description}</span>
      </span>
      {busy ? (
        <Loader2Icon className="size-4 shrink-0 animate-spin text-primary" aria-hidden />
      ) : (
        <ArrowRightIcon
          className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
          aria-hidden
        />
      )}
    </>
  );
}

function QuickAction({ href, icon, title, description }: { href: string; icon: LucideIcon; title: string; description: string }) {
  return (
    <Link href={href} className={QUICK_ACTION_CLASS}>
      <QuickActionBody icon={icon} title={title} description={description} />
    </Link>
  );
}

/** Import Template: a file picker for .docx, .pdf and .txt; the result opens in the builder unsaved. */
function ImportTemplateAction() {
  const { inputRef, onChange, open, pending } = useTemplateImport();
  return (
    <>
      <button
        type="button"
        className={`${QUICK_ACTION_CLASS} cursor-pointer disabled:cursor-wait disabled:opacity-80`}
        onClick={open}
        disabled={pending}
        aria-busy={pending || undefined}
      >
        <QuickActionBody
          icon={FileUpIcon}
          title={pending ? 'Importing...' : 'Import Template'}
          description="Turn a .docx, .pdf or .txt file into a format"
          busy={pending}
        />
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={IMPORT_ACCEPT}
        onChange={onChange}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid="import-template-input"
      />
    </>
  );
}

/**
 * A dashboard list: a short preview of one page, with View All leading to it, and its loading, error and empty states.
 * `dialog` is the delete confirmation its rows open.
 */
function ListCard<TItem extends { id: string }>({
  title,
  description,
  href,
  query,
  items,
  errorText,
  empty,
  dialog,
  children: renderItem,
}: {
  title: string;
  description: string;
  href: string;
  query: QueryStatus;
  items: TItem[];
  errorText: string;
  empty: ReactNode;
  dialog: ReactNode;
  children: (item: TItem) => ReactNode;
}) {
  return (
    <>
      <Card className="min-w-0">
        <CardHeader className="flex-row items-start justify-between gap-4 space-y-0">
          <div className="space-y-1.5">
            <CardTitle>{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </div>
          <Button variant="ghost" size="sm" asChild>
            <Link href={href}>
              View All <ArrowRightIcon />
            </Link>
          </Button>
        </CardHeader>
        <CardContent>
          <QueryState
            query={query}
            loading={<SkeletonList count={3} itemClassName="h-14 w-full" />}
            errorText={errorText}
            isEmpty={items.length === 0}
            empty={empty}
          >
            <ul className="divide-y">{items.slice(0, DASHBOARD_LIST_SIZE).map(renderItem)}</ul>
          </QueryState>
        </CardContent>
      </Card>
      {dialog}
    </>
  );
}

function MyFormatsCard({ canEdit }: { canEdit: boolean }) {
  const { data, isLoading, error } = useFormats();
  const { confirmDeleteFormat, pendingId, dialog } = useConfirmDelete();
  const madeBy = useMadeBy();
  return (
    <ListCard
      title="My Formats"
      description="Your reusable document templates"
      href="/formats"
      query={{ isLoading, error }}
      items={data ?? []}
      errorText="Could not load your formats."
      empty={
        <EmptyState
          icon={LayoutTemplateIcon}
          title="No formats yet"
          description={
            canEdit
              ? 'Build a template once with named placeholders, then generate documents from it in seconds.'
              : 'The team’s editors create its formats; they appear here to fill in.'
          }
          action={canEdit && <CreateFirstFormatButton />}
        />
      }
      dialog={dialog}
    >
      {(f) => (
        <li key={f.id} className="flex items-center gap-3 py-3" data-testid="dashboard-format">
          <IconTile icon={LayoutTemplateIcon} className="hidden sm:flex" />
          <div className="min-w-0 flex-1">
            <Link
              href={formatFillHref(f.id)}
              className="line-clamp-2 text-sm font-medium break-words hover:text-primary hover:underline hover:underline-offset-4"
            >
              {f.name}
            </Link>
            <p className="text-xs text-muted-foreground">
              Modified {formatDate(f.updatedAt)} · {f.placeholders.length} {f.placeholders.length === 1 ? 'placeholder' : 'placeholders'}
              {madeBy && ` · by ${inSentence(madeBy.nameOf(f.createdBy))}`}
            </p>
          </div>
          <div className="flex shrink-0 items-center">
            {canEdit && <IconAction label={`Edit ${f.name}`} icon={PencilIcon} href={formatEditHref(f.id)} />}
            <IconAction label={`Fill data for ${f.name}`} icon={ClipboardPenLineIcon} href={formatFillHref(f.id)} />
            {canEdit && (
              <IconAction label={`Delete ${f.name}`} icon={Trash2Icon} destructive disabled={pendingId === f.id} onClick={() => confirmDeleteFormat(f)} />
            )}
          </div>
        </li>
      )}
    </ListCard>
  );
}

function RecentDocumentsCard({ canEdit }: { canEdit: boolean }) {
  const { data, isLoading, error } = useRecentDocuments(DASHBOARD_LIST_SIZE);
  const { confirmDeleteDocument, pendingId, dialog } = useConfirmDelete();
  return (
    <ListCard
      title="Recent Documents"
      description="PDFs you generated most recently"
      href="/documents"
      query={{ isLoading, error }}
      items={data ?? []}
      errorText="Could not load your documents."
      empty={
        <EmptyState
          icon={FileTextIcon}
          title="No documents yet"
          description={
            canEdit
              ? 'Documents appear here once you fill in a format. Start by creating your first format.'
              : 'Documents appear here once you fill in a format.'
          }
          action={canEdit && <CreateFirstFormatButton variant="outline" />}
        />
      }
      dialog={dialog}
    >
      {(d) => (
        <li key={d.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3 sm:flex-nowrap" data-testid="dashboard-document">
          <IconTile icon={FileTextIcon} tone="document" className="hidden sm:flex" />
          <div className="min-w-0 flex-1">
            <p className="line-clamp-2 text-sm font-medium break-words">{d.name}</p>
            <div className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
              <span>{formatDate(d.createdAt)}</span>
              <DocumentBadges status={d.status} />
            </div>
          </div>
          <div className="-ml-2 flex w-full shrink-0 items-center sm:ml-0 sm:w-auto">
            <DocumentActions document={d} deleting={pendingId === d.id} onDelete={() => confirmDeleteDocument(d)} />
          </div>
        </li>
      )}
    </ListCard>
  );
}

/** A first-time user's dashboard: the way to a first PDF, not statistics of nothing. */
function FirstRun({ name }: { name: string }) {
  const steps = [
    { title: 'Pick a template', text: 'Each one is laid out and has its fields ready.' },
    { title: 'Make it yours', text: 'Change any text or field in the builder, then save.' },
    { title: 'Fill in and download', text: 'Type the values into the form and get the PDF.' },
  ];
  return (
    <div className="space-y-8" data-testid="first-run">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-[28px]">
          Welcome to Formwork, <span data-testid="greeting-name">{name}</span>
        </h1>
        <p className="text-sm text-muted-foreground sm:text-[15px]">Your first PDF is about two minutes away.</p>
      </div>
      <ol className="grid gap-3 sm:grid-cols-3" aria-label="How it works">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-3 rounded-lg border bg-background p-4 shadow-xs">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
              aria-hidden
            >
              {i + 1}
            </span>
            <span>
              <span className="block text-sm font-semibold">{step.title}</span>
              <span className="block text-sm text-muted-foreground">{step.text}</span>
            </span>
          </li>
        ))}
      </ol>
      <section aria-labelledby="starters-title" className="space-y-3">
        <h2 id="starters-title" className="text-base font-semibold">
          Start from a template
        </h2>
        <Suspense fallback={<SkeletonList count={6} className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" itemClassName="h-32" />}>
          <StarterGallery />
        </Suspense>
      </section>
      <section aria-labelledby="other-starts-title" className="space-y-3">
        <h2 id="other-starts-title" className="text-sm font-semibold text-foreground">
          Or begin another way
        </h2>
        <div className="grid gap-3 md:grid-cols-2">
          <QuickAction href="/builder" icon={PlusIcon} title="Blank format" description="Build your own from headings, text, tables and images" />
          <ImportTemplateAction />
        </div>
      </section>
    </div>
  );
}

export function DashboardPage() {
  const { user, isLoading: userLoading } = useAuth();
  const stats = useStats(!!user);
  const allowance = useFormatAllowance();
  useDocumentTitle('Dashboard');
  // In a team, making and changing formats is for editors and up (route-roles.ts).
  const canEdit = useWorkspace().atLeast('editor');

  // The page is drawn once the figures are in, as a deferred render (in slices, the browser
  // responsive between them) rather than in one long task.
  const statsLoading = useDeferredValue(stats.isLoading);
  if (userLoading || !user || statsLoading) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center text-sm text-muted-foreground" role="status">
        Loading...
      </div>
    );
  }

  const s = stats.data;
  const loading = stats.isLoading;
  const used = s?.apiCallsUsed ?? user.apiCallsUsed;
  const limit = effectiveLimit(s ? s.apiCallsLimit : user.apiCallsLimit);
  const totalDocuments = s?.totalDocuments ?? 0;
  const greetingName = user.firstName?.trim() || user.email;
  if (canEdit && s && s.totalFormats === 0 && s.totalDocuments === 0) return <FirstRun name={greetingName} />;

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-[28px]">
          Welcome back, <span data-testid="greeting-name">{greetingName}</span>
        </h1>
        <p className="text-sm text-muted-foreground sm:text-[15px]">Here is what is happening with your documents.</p>
      </div>

      <RenewalNotice />

      {stats.error && (
        <p className="rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm text-destructive" role="alert">
          {readApiError(stats.error, 'Could not load your statistics.').message}
        </p>
      )}

      <section aria-label="Statistics" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <StatCard
          label="Total Formats"
          value={formatNumber(s?.totalFormats ?? 0)}
          hint={allowance?.limit != null ? `${formatNumber(allowance.used)} of ${formatNumber(allowance.limit)} on your plan` : 'Templates in your workspace'}
          icon={LayoutTemplateIcon}
          loading={loading}
        />
        <StatCard label="Documents Generated" value={formatNumber(totalDocuments)} hint="PDFs created, all time" icon={FileTextIcon} loading={loading} />
        <StatCard
          label="Documents this month"
          value={
            <>
              {formatNumber(used)}
              <span className="text-base font-medium text-muted-foreground sm:text-lg">/{formatNumber(limit)}</span>
            </>
          }
          hint="Made in the app and through the API, of your plan's quota"
          icon={ZapIcon}
          loading={loading}
        />
        <StatCard
          label="Time Saved"
          value={formatDuration(totalDocuments * MINUTES_SAVED_PER_DOCUMENT)}
          hint={`Estimate: ${MINUTES_SAVED_PER_DOCUMENT} min per document`}
          icon={ClockIcon}
          loading={loading}
        />
      </section>

      <section aria-labelledby="quick-actions-title">
        <h2 id="quick-actions-title" className="mb-3 text-sm font-semibold text-foreground">
          Quick actions
        </h2>
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {canEdit && (
            <>
              <QuickAction
                href="/builder"
                icon={PlusIcon}
                title="Create New Format"
                description={
                  allowance?.atLimit
                    ? `${formatNumber(allowance.used)} of ${formatNumber(allowance.limit ?? 0)} formats used: upgrade to save more`
                    : 'Start a template in the builder'
                }
              />
              <ImportTemplateAction />
            </>
          )}
          <QuickAction href="/settings" icon={BookOpenIcon} title="API Documentation" description="Generate documents from your own apps" />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <MyFormatsCard canEdit={canEdit} />
        <RecentDocumentsCard canEdit={canEdit} />
      </div>
    </div>
  );
}
