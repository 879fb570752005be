import { CopyIcon, EyeIcon, LinkIcon, Loader2Icon, MailIcon, PlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { DEFAULT_SHARE_DAYS, type TShareLink } from '../../../contract/delivery';
import { EmptyState } from '../../components/layout/empty-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { QueryState } from '../../components/query-state';
import { NativeSelect } from '../../components/ui/native-select';
import { Separator } from '../../components/ui/separator';
import { Skeleton } from '../../components/ui/skeleton';
import { toast, toastApiError } from '../../hooks/use-toast';
import { formatDate } from '../../lib/utils';
import { useCreateShareLink, useDocumentDeliveries, useRevokeShareLink, useShareLinks } from './api';
import { DeliveryLog } from './delivery-log';
import { useVerificationRequired, VerifyEmailNotice } from '../../components/layout/verify-email-notice';

type TDocumentRef = { id: string; name: string };

const EXPIRY_CHOICES = [1, 7, 30, 90];

function copy(url: string) {
  void navigator.clipboard.writeText(url).then(
    () => toast({ title: 'Link copied', description: 'Anyone with it can open this document until it expires.' }),
    () => toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the link and copy it by hand.' }),
  );
}

function LinkState({ link }: { link: TShareLink }) {
  if (link.revokedAt) return <Badge variant="secondary">Turned off</Badge>;
  if (!link.active) return <Badge variant="secondary">Expired</Badge>;
  return <Badge variant="success">Active</Badge>;
}

function ShareLinks({ document }: { document: TDocumentRef }) {
  const id = useId();
  const links = useShareLinks(document.id, true);
  const create = useCreateShareLink();
  const revoke = useRevokeShareLink(document.id);
  const [days, setDays] = useState(DEFAULT_SHARE_DAYS);
  const held = useVerificationRequired();

  const make = () =>
    create.mutate(
      { documentId: document.id, body: { expiresInDays: days } },
      {
        onSuccess: (link) => copy(link.url),
        onError: toastApiError('The link could not be made'),
      },
    );

  return (
    <section aria-labelledby={`${id}-title`} className="grid min-w-0 gap-3">
      <div>
        <h3 id={`${id}-title`} className="text-sm font-semibold">
          Share links
        </h3>
        <p className="mt-0.5 text-[13px] text-muted-foreground">A link opens the PDF without an account until it expires or you turn it off.</p>
      </div>
      <VerifyEmailNotice doing="share links" />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <label htmlFor={`${id}-days`} className="text-sm text-muted-foreground">
          Open for
        </label>
        <NativeSelect id={`${id}-days`} value={String(days)} onChange={(e) => setDays(Number(e.target.value))} className="sm:w-32">
          {EXPIRY_CHOICES.map((d) => (
            <option key={d} value={d}>
              {d === 1 ? '1 day' : `${d} days`}
            </option>
          ))}
        </NativeSelect>
        <Button onClick={make} disabled={create.isPending || held} className="sm:ml-auto">
          {create.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <PlusIcon aria-hidden />} Create and copy link
        </Button>
      </div>
      <QueryState
        query={links}
        loading={<Skeleton className="h-16" />}
        errorText="Could not load the links."
        isEmpty={(links.data ?? []).length === 0}
        empty={<p className="text-[13px] text-muted-foreground">No links yet.</p>}
      >
        <ul className="divide-y rounded-lg border" aria-label="Share links">
          {(links.data ?? []).map((link) => (
            <li key={link.id} className="grid min-w-0 gap-2 px-3 py-2.5" data-testid="share-link-row">
              <div className="flex min-w-0 items-center gap-2">
                <LinkIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                <code className={`min-w-0 flex-1 truncate text-xs ${link.active ? '' : 'text-muted-foreground line-through'}`} title={link.url}>
                  {link.url}
                </code>
                <LinkState link={link} />
              </div>
              <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
                <span className="inline-flex items-center gap-1 tabular-nums">
                  <EyeIcon className="size-3.5" aria-hidden /> {link.views} {link.views === 1 ? 'view' : 'views'} · {link.downloads}{' '}
                  {link.downloads === 1 ? 'download' : 'downloads'}
                </span>
                <span>
                  {link.revokedAt
                    ? `Turned off ${formatDate(link.revokedAt)}`
                    : link.active
                      ? `Open until ${formatDate(link.expiresAt)}`
                      : `Expired ${formatDate(link.expiresAt)}`}
                </span>
                {link.origin === 'email' && <span>Made for an email</span>}
                {link.active && (
                  <span className="ml-auto flex gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-7 px-2"
                      onClick={() => copy(link.url)}
                      aria-label={`Copy link created ${formatDate(link.createdAt, true)}`}
                    >
                      <CopyIcon aria-hidden /> Copy
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="h-7 px-2 text-destructive hover:bg-destructive/10 hover:text-destructive"
                      disabled={revoke.isPending}
                      onClick={() =>
                        revoke.mutate(link.id, {
                          onSuccess: () => toast({ title: 'Link turned off', description: 'It no longer opens the document.' }),
                          onError: toastApiError('Could not turn the link off'),
                        })
                      }
                    >
                      Turn off
                    </Button>
                  </span>
                )}
              </div>
            </li>
          ))}
        </ul>
      </QueryState>
    </section>
  );
}

function Emails({ document, onEmail }: { document: TDocumentRef; onEmail: () => void }) {
  const id = useId();
  const deliveries = useDocumentDeliveries(document.id, true);
  return (
    <section aria-labelledby={`${id}-title`} className="grid min-w-0 gap-2">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h3 id={`${id}-title`} className="text-sm font-semibold">
            Emails
          </h3>
          <p className="mt-0.5 text-[13px] text-muted-foreground">Every time this document was emailed, and what the mail server said.</p>
        </div>
        <Button variant="outline" size="sm" onClick={onEmail}>
          <MailIcon aria-hidden /> Email
        </Button>
      </div>
      <QueryState
        query={deliveries}
        loading={<Skeleton className="h-20" />}
        errorText="Could not load the emails."
        isEmpty={(deliveries.data ?? []).length === 0}
        empty={
          <EmptyState
            icon={MailIcon}
            title="Not emailed yet"
            description="Emails you send from here or through the API show up in this log."
            className="py-6"
          />
        }
      >
        <DeliveryLog deliveries={deliveries.data ?? []} />
      </QueryState>
    </section>
  );
}

/** A document's share links and its email log, from its actions in any list. */
export function DocumentDeliveryDialog({
  document,
  onOpenChange,
  onEmail,
}: {
  document: TDocumentRef | null;
  onOpenChange: (open: boolean) => void;
  onEmail: () => void;
}) {
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle>Share and emails</DialogTitle>
              <DialogDescription className="break-words">{document.name}</DialogDescription>
            </DialogHeader>
            <ShareLinks document={document} />
            <Separator />
            <Emails document={document} onEmail={onEmail} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
