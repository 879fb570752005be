import { KeyRoundIcon, MailPlusIcon, SaveIcon, UserPlusIcon, UsersRoundIcon } from 'lucide-react';
import { QueryState, SkeletonList } from '../../components/query-state';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ZEmailDomain, ZSignUpPolicy, type TSignUpMode, type TSignUpPolicy } from '../../../contract/sign-ups';
import { Button } from '../../components/ui/button';
import { ChoiceCard } from '../../components/ui/choice-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Textarea } from '../../components/ui/textarea';
import { useAppConfig } from '../../hooks/use-app-config';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { Field, SpinnerLabel } from './admin-ui';
import { useSaveSignUpPolicy, useSignUpPolicy } from './api';

const MODES: { value: TSignUpMode; label: string; description: string; icon: typeof UserPlusIcon }[] = [
  { value: 'open', label: 'Open', description: 'Anyone may create an account, from the allowed domains below if you list any.', icon: UserPlusIcon },
  {
    value: 'invitation',
    label: 'Invitation only',
    description: 'Only people you invite under Users → Invite people. Each invitation works once, for its address, for 7 days.',
    icon: MailPlusIcon,
  },
  {
    value: 'sso',
    label: 'Single sign-on only',
    description: 'New accounts come only through your identity provider; nobody signs up with a password.',
    icon: KeyRoundIcon,
  },
];

const splitDomains = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The form's policy: domains typed one per line (or separated by commas or spaces), each checked as the server will. */
const ZSignUpsForm = z.object({
  mode: ZSignUpPolicy.shape.mode,
  allowedDomains: z
    .string()
    .transform((text, ctx) => {
      const domains: string[] = [];
      for (const part of splitDomains(text)) {
        const parsed = ZEmailDomain.safeParse(part);
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: `“${part}” is not a domain. Enter domains such as example.com, one per line.` });
          return z.NEVER;
        }
        domains.push(parsed.data);
      }
      return domains;
    })
    .pipe(ZSignUpPolicy.shape.allowedDomains),
});

function SignUpsForm({ saved, singleSignOn }: { saved: TSignUpPolicy; singleSignOn: string | null }) {
  const save = useSaveSignUpPolicy();
  const form = useForm<z.input<typeof ZSignUpsForm>, unknown, z.output<typeof ZSignUpsForm>>({
    resolver: zodResolver(ZSignUpsForm),
    defaultValues: { mode: saved.mode, allowedDomains: saved.allowedDomains.join('\n') },
  });
  const [mode, domainsText] = useWatch({ control: form.control, name: ['mode', 'allowedDomains'] });
  const domainsError = form.formState.errors.allowedDomains?.message;
  const [formError, setFormError] = useState<string | null>(null);

  const dirty = mode !== saved.mode || splitDomains(domainsText).join('\n') !== saved.allowedDomains.join('\n');

  const submit = form.handleSubmit((values) => {
    setFormError(null);
    save.mutate(values, {
      onSuccess: (policy) =>
        toast({
          title: 'Sign-ups saved',
          description: `${MODES.find((m) => m.value === policy.mode)?.label ?? policy.mode}${policy.allowedDomains.length ? `, from ${policy.allowedDomains.join(', ')}` : ''}. Existing accounts keep signing in.`,
        }),
      onError: (err) => {
        if (isUnauthorizedError(err)) return;
        const read = readApiError(err, 'Could not save the sign-up settings. Please try again.');
        if (Object.keys(read.fields).some((f) => f.startsWith('allowedDomains'))) form.setError('allowedDomains', { type: 'server', message: read.message });
        else setFormError(read.message);
        toast({ variant: 'destructive', title: 'Failed to save sign-ups', description: read.message });
      },
    });
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign-ups" className="grid gap-6">
      <fieldset className="grid gap-2.5">
        <legend className="mb-2.5 text-sm font-medium">Who may create an account</legend>
        {MODES.map((option) => (
          <ChoiceCard
            key={option.value}
            value={option.value}
            checked={mode === option.value}
            disabled={option.value === 'sso' && !singleSignOn && saved.mode !== 'sso'}
            icon={option.icon}
            label={option.label}
            description={
              option.value === 'sso' && !singleSignOn
                ? 'Needs an identity provider (OIDC_ISSUER and its settings), which this installation does not have.'
                : option.value === 'sso'
                  ? `New accounts come only through “Continue with ${singleSignOn}”; nobody signs up with a password.`
                  : option.description
            }
            {...form.register('mode')}
          />
        ))}
      </fieldset>
      <Field
        id="sign-up-domains"
        label="Allowed email domains"
        optional
        error={domainsError}
        hint="One per line, such as example.com. Leave empty for any domain. Applies to password and single sign-on sign-ups; an invitation names its own address and passes."
      >
        <Textarea
          id="sign-up-domains"
          rows={3}
          {...form.register('allowedDomains')}
          placeholder={'example.com\nexample.org'}
          spellCheck={false}
          autoCapitalize="none"
          aria-invalid={domainsError ? true : undefined}
          aria-describedby={domainsError ? 'sign-up-domains-error' : 'sign-up-domains-hint'}
          className="min-h-20 font-mono text-[13px]"
        />
      </Field>
      {formError && (
        <p className="text-[13px] text-destructive" role="alert">
          {formError}
        </p>
      )}
      <div className="flex flex-col gap-3 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-center gap-1.5 text-[13px] text-muted-foreground">
          <UsersRoundIcon className="size-4 shrink-0" aria-hidden /> Existing accounts keep signing in whatever you choose.
        </p>
        <Button type="submit" disabled={!dirty || save.isPending}>
          {save.isPending ? (
            <SpinnerLabel pending idle="Save sign-ups" busy="Saving..." />
          ) : (
            <>
              <SaveIcon aria-hidden /> Save sign-ups
            </>
          )}
        </Button>
      </div>
    </form>
  );
}

/** Admin Panel → Settings → Sign-ups: open, by invitation or through single sign-on, and from which domains. */
export function SignUpsCard() {
  const policy = useSignUpPolicy();
  const singleSignOn = useAppConfig().data?.signUps.singleSignOn ?? null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <UserPlusIcon className="size-4 text-primary" aria-hidden /> Sign-ups
        </CardTitle>
        <CardDescription>Who may create an account on this installation. The sign-up page tells visitors before they type.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={policy} loading={<SkeletonList count={2} />} errorText="Could not load the sign-up settings.">
          {() =>
            policy.data && (
              // Keyed by what is stored, so a save (here or in another tab) starts the form from it.
              <SignUpsForm key={JSON.stringify(policy.data)} saved={policy.data} singleSignOn={singleSignOn} />
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}
