import { MailPlusIcon, RefreshCwIcon, XIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { INVITATION_DAYS, ZInvitationInput, type TInvitation, type TInvitationInput } from '../../../contract/sign-ups';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { toast, toastApiError } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { Field, FormDialogFooter, formatDay } from './admin-ui';
import { useInvitations, useInvite, useResendInvitation, useRevokeInvitation } from './api';

/** Users → Invite people: one address, an email with a sign-up link that works once for it. */
export function InviteButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <MailPlusIcon aria-hidden /> Invite people
      </Button>
      {open && <InviteDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const invite = useInvite();
  const form = useForm<TInvitationInput>({ resolver: zodResolver(ZInvitationInput), defaultValues: { email: '' } });
  const emailError = form.formState.errors.email?.message;
  const [error, setError] = useState<string | null>(null);

  const submit = form.handleSubmit(({ email }) => {
    setError(null);
    invite.mutate(email, {
      onSuccess: (invitation) => {
        toast({
          title: 'Invitation sent',
          description: `${invitation.email} can create an account with the link in the email, within ${INVITATION_DAYS} days.`,
        });
        onClose();
      },
      onError: (err) => {
        if (isUnauthorizedError(err)) return;
        const read = readApiError(err, 'Could not send the invitation. Please try again.');
        if (read.fields.email) form.setError('email', { type: 'server', message: read.fields.email });
        else setError(read.message);
      },
    });
  });

  return (
    <Dialog open onOpenChange={(next) => !next && !invite.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-5" aria-label="Invite people">
          <DialogHeader>
            <DialogTitle>Invite people</DialogTitle>
            <DialogDescription>
              We email them a link to create an account with this address. It works once, within {INVITATION_DAYS} days, even when sign-ups are by invitation
              only or limited to some domains.
            </DialogDescription>
          </DialogHeader>
          <Field id="invite-email" label="Email address" error={emailError}>
            <Input
              id="invite-email"
              type="email"
              autoComplete="off"
              {...form.register('email')}
              placeholder="name@example.com"
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? 'invite-email-error' : undefined}
            />
          </Field>
          <FormDialogFooter error={error} pending={invite.isPending} idle="Send invitation" busy="Sending..." onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function InvitationRow({ invitation }: { invitation: TInvitation }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [confirming, setConfirming] = useState(false);
  const fail = (title: string) => toastApiError(title, 'Please try again.');
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="pending-invitation">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
          <span className="truncate" title={invitation.email}>
            {invitation.email}
          </span>
          {invitation.expired ? <Badge variant="outline">Expired</Badge> : <Badge variant="secondary">Pending</Badge>}
        </p>
        <p className="text-xs text-muted-foreground">
          Sent {formatDay(invitation.sentAt)} by {invitation.invitedBy} · {invitation.expired ? 'expired' : 'works until'} {formatDay(invitation.expiresAt)}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={resend.isPending}
          aria-label={`Resend the invitation to ${invitation.email}`}
          onClick={() =>
            resend.mutate(invitation.id, {
              onSuccess: () =>
                toast({ title: 'Invitation sent again', description: `A new link is on its way to ${invitation.email}; the old one no longer works.` }),
              onError: fail('Could not resend the invitation'),
            })
          }
        >
          <RefreshCwIcon aria-hidden /> Resend
        </Button>
        <Button variant="outline" size="sm" aria-label={`Revoke the invitation to ${invitation.email}`} onClick={() => setConfirming(true)}>
          <XIcon aria-hidden /> Revoke
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Revoke the invitation to ${invitation.email}?`}
        description="The link in their email stops working. You can invite the address again later."
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(invitation.id, {
            onSuccess: () => {
              toast({ title: 'Invitation revoked', description: `The link sent to ${invitation.email} no longer works.` });
              setConfirming(false);
            },
            onError: (err) => {
              fail('Could not revoke the invitation')(err);
              setConfirming(false);
            },
          })
        }
      />
    </li>
  );
}

/** The invitations nobody has used yet; nothing is shown while there are none. */
export function PendingInvitations() {
  const invitations = useInvitations(true);
  const list = invitations.data ?? [];
  // Saying nothing would read as "no invitations pending", which may not be so.
  if (invitations.error) return <LoadError error={invitations.error} fallback="Could not load the invitations not used yet." />;
  if (list.length === 0) return null;
  return (
    <Card className="gap-0 overflow-hidden p-0">
      <h2 className="border-b bg-muted/40 px-4 py-2.5 text-xs font-medium text-muted-foreground">Invitations not used yet ({list.length})</h2>
      <ul className="divide-y" aria-label="Pending invitations">
        {list.map((invitation) => (
          <InvitationRow key={invitation.id} invitation={invitation} />
        ))}
      </ul>
    </Card>
  );
}
