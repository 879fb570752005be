import { CalendarIcon, Loader2Icon, PenLineIcon, SignatureIcon, TypeIcon, UserIcon } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import { initialsOf } from '../../../../contract/public-pages';
import type { TSignatureMarkInput, TSigningField, TSigningSession, TSignResult } from '../../../../contract/signature-requests';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useMediaQuery } from '../../../hooks/use-media-query';
import { errorStatus, readApiError } from '../../../lib/api';
import { DeclineDialog } from './decline-dialog';
import { MarkInput } from './mark-input';
import { useSign } from './signer-api';

const FIELD_NOTES: Record<TSigningField['type'], { icon: typeof UserIcon; note: (name: string) => string }> = {
  signature: { icon: SignatureIcon, note: () => 'Your signature, from below' },
  initials: { icon: TypeIcon, note: () => 'Your initials, from below' },
  signed_date: { icon: CalendarIcon, note: () => 'Today’s date, filled in when you sign' },
  signer_name: { icon: UserIcon, note: (name) => `Your name: ${name}` },
};

/** Why signing failed, in words: the server's own message, its field errors, or the link's end. */
function SignError({ error }: { error: unknown }) {
  const { message, fields } = readApiError(error);
  const status = errorStatus(error);
  const title = status === 404 ? 'This link can no longer be used' : status === 409 ? 'It is not your turn yet' : 'The document was not signed';
  const text = status === 404 ? 'The request may have been cancelled, have expired, or been signed already. Ask the sender for a new link.' : message;
  const details = Object.values(fields).filter((detail) => detail !== text);
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{text}</p>
        {details.length > 0 && (
          <ul className="list-disc pl-4">
            {details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </AlertDescription>
    </Alert>
  );
}

/** What the signer fills, their consent, their signature (and initials), then Sign or Decline. */
export function SignPanel({
  token,
  session,
  onSigned,
  onDeclined,
}: {
  token: string;
  session: TSigningSession;
  onSigned: (result: TSignResult) => void;
  onDeclined: (result: TSignResult) => void;
}) {
  const id = useId();
  // Fingers draw; a keyboard, mouse or trackpad starts on Type, which works for everyone.
  const touchFirst = useMediaQuery('(pointer: coarse)');
  const [consent, setConsent] = useState(false);
  const [signature, setSignature] = useState<TSignatureMarkInput | null>(null);
  const [initials, setInitials] = useState<TSignatureMarkInput | null>(null);
  const sign = useSign(token);
  const onSignature = useCallback((mark: TSignatureMarkInput | null) => setSignature(mark), []);
  const onInitials = useCallback((mark: TSignatureMarkInput | null) => setInitials(mark), []);

  const missing = [
    !signature && 'add your signature',
    session.needsInitials && !initials && 'add your initials',
    !consent && 'tick the box to agree to sign electronically',
  ].filter((step) => step !== false);
  const ready = missing.length === 0;

  const submit = () => {
    if (!signature || !ready) return;
    sign.mutate({ consent: true, signature, ...(session.needsInitials && initials ? { initials } : {}) }, { onSuccess: onSigned });
  };

  return (
    <Card className="grid gap-6 p-5 sm:p-6" aria-labelledby={`${id}-title`} role="region">
      <div className="grid gap-1.5">
        <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          <PenLineIcon className="size-5 text-primary" aria-hidden /> Sign
        </h2>
        <p className="text-sm text-muted-foreground">
          Signing as <bdi className="font-medium text-foreground">{session.signer.name}</bdi> (<bdi>{session.signer.email}</bdi>)
        </p>
      </div>

      {session.fields.length > 0 && (
        <section className="grid gap-2" aria-labelledby={`${id}-fields`}>
          <h3 id={`${id}-fields`} className="text-sm font-medium">
            What you fill in this document
          </h3>
          <ul className="grid gap-1.5 text-sm">
            {session.fields.map((field) => {
              const { icon: Icon, note } = FIELD_NOTES[field.type];
              return (
                <li key={field.name} className="flex items-start gap-2 rounded-md bg-muted/60 px-3 py-2">
                  <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span className="min-w-0 break-words">
                    <bdi className="font-medium">{field.label}</bdi>
                    <span className="block text-xs text-muted-foreground">
                      <bdi>{note(session.signer.name)}</bdi>
                    </span>
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className="grid gap-2" aria-labelledby={`${id}-signature`}>
        <h3 id={`${id}-signature`} className="text-sm font-medium">
          Your signature
        </h3>
        <MarkInput
          what="signature"
          defaultText={session.signer.name}
          modes={['typed', 'drawn', 'uploaded']}
          defaultMode={touchFirst ? 'drawn' : 'typed'}
          onChange={onSignature}
        />
      </section>

      {session.needsInitials && (
        <section className="grid gap-2" aria-labelledby={`${id}-initials`}>
          <h3 id={`${id}-initials`} className="text-sm font-medium">
            Your initials
          </h3>
          <MarkInput what="initials" defaultText={initialsOf(session.signer.name)} modes={['typed', 'drawn']} defaultMode="typed" onChange={onInitials} />
        </section>
      )}

      <label htmlFor={`${id}-consent`} className="flex cursor-pointer items-start gap-3 rounded-lg border bg-muted/40 p-3 text-sm leading-relaxed">
        <input
          id={`${id}-consent`}
          type="checkbox"
          required
          aria-required
          checked={consent}
          onChange={(event) => setConsent(event.target.checked)}
          className="mt-1 size-4 shrink-0 cursor-pointer accent-[var(--color-primary)] focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none"
        />
        <span>{session.consent.text}</span>
      </label>

      {sign.error !== null && <SignError error={sign.error} />}

      <div className="grid gap-2">
        <Button size="lg" className="w-full" disabled={!ready || sign.isPending} onClick={submit} aria-describedby={ready ? undefined : `${id}-missing`}>
          {sign.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SignatureIcon aria-hidden />} Sign
        </Button>
        {!ready && (
          <p id={`${id}-missing`} className="text-center text-xs text-muted-foreground">
            To sign, {missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0]}.
          </p>
        )}
        <DeclineDialog token={token} senderName={session.senderName} onDeclined={onDeclined} />
      </div>
    </Card>
  );
}
