import { ShieldCheckIcon, UserIcon } from 'lucide-react';
import { LoadingText } from '../../components/query-state';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ZAdminUserUpdate, ZRoleChange, type TAdminUser } from '../../../contract/admin';
import { ZPlanId, type TPlanCatalogue } from '../../../contract/plans';
import type { TRole } from '../../../contract/user';
import { Button } from '../../components/ui/button';
import { ChoiceCard } from '../../components/ui/choice-card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { formatNumber } from '../../lib/utils';
import { Field, FormDialogFooter, NativeSelect } from './admin-ui';
import { userApiUsageCsvUrl, useChangeRole, useUpdateUser, useUserApiUsage } from './api';
import { UsagePanel } from '../public-api/usage-panel';
import { displayName, planLimit, findPlan, customLimit } from './users-list';
import { plural } from '../../../contract/text';

type TRoleChange = z.infer<typeof ZRoleChange>;

const ROLE_OPTIONS: { value: TRole; label: string; description: string; icon: typeof UserIcon }[] = [
  { value: 'user', label: 'User', description: 'Builds formats and generates documents in their own account.', icon: UserIcon },
  {
    value: 'admin',
    label: 'Admin',
    description: 'Everything a user can do, plus this panel: users, settings and payment gateways.',
    icon: ShieldCheckIcon,
  },
];

/** Mounted per target user (keyed), so its state starts from that user. */
export function RoleDialog({ user, isSelf, onClose }: { user: TAdminUser; isSelf: boolean; onClose: () => void }) {
  const changeRole = useChangeRole();
  const form = useForm<TRoleChange>({ resolver: zodResolver(ZRoleChange), defaultValues: { role: user.role } });
  const role = useWatch({ control: form.control, name: 'role' });
  const [error, setError] = useState<string | null>(null);

  const submit = form.handleSubmit(({ role }) => {
    if (role === user.role) {
      onClose();
      return;
    }
    setError(null);
    changeRole.mutate(
      { id: user.id, role },
      {
        onSuccess: (updated) => {
          toast({
            title: 'User role updated successfully',
            description: `${displayName(updated)} is now ${updated.role === 'admin' ? 'an admin' : 'a user'}.`,
          });
          onClose();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const message = readApiError(err, 'Please try again.').message;
          setError(message);
          toast({ variant: 'destructive', title: 'Failed to update user role', description: message });
        },
      },
    );
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !changeRole.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <form onSubmit={(event) => void submit(event)} className="grid gap-5" aria-label="Change role">
          <DialogHeader>
            <DialogTitle>Change role</DialogTitle>
            <DialogDescription>
              Choose what <span className="font-medium text-foreground">{displayName(user)}</span> ({user.email}) can do.
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2.5">
            <legend className="sr-only">Role</legend>
            {ROLE_OPTIONS.map((opt) => (
              <ChoiceCard
                key={opt.value}
                value={opt.value}
                checked={role === opt.value}
                disabled={isSelf && user.role === 'admin' && opt.value === 'user'}
                icon={opt.icon}
                label={opt.label}
                description={opt.description}
                {...form.register('role')}
              />
            ))}
          </fieldset>
          {isSelf && user.role === 'admin' && (
            <p className="text-[13px] text-muted-foreground">You can’t remove your own admin role. Ask another admin to do it.</p>
          )}
          <FormDialogFooter
            error={error}
            pending={changeRole.isPending}
            idle="Update role"
            busy="Updating..."
            submitDisabled={role === user.role}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

const ZApiCallsLimit = ZAdminUserUpdate.shape.apiCallsLimit;
const LIMIT_MAX = 100_000_000;

/** The limit as typed ("25,000", or blank for the plan's own), read into what the contract takes. */
const ZLimitText = z.string().transform((text, ctx) => {
  const trimmed = text.trim().replace(/[,_\s]/g, '');
  if (trimmed === '') return null;
  const parsed = ZApiCallsLimit.safeParse(Number(trimmed));
  if (parsed.success) return parsed.data ?? null;
  ctx.addIssue({ code: 'custom', message: `Enter a whole number from 0 to ${formatNumber(LIMIT_MAX)}, or leave it blank.` });
  return z.NEVER;
});
const ZPlanForm = z.object({ subscriptionPlan: ZPlanId, apiCallsLimit: ZLimitText });

/** Mounted per target user (keyed), so its state starts from that user. */
export function PlanDialog({ user, catalogue, onClose }: { user: TAdminUser; catalogue: TPlanCatalogue; onClose: () => void }) {
  const updateUser = useUpdateUser();
  const form = useForm<z.input<typeof ZPlanForm>, unknown, z.output<typeof ZPlanForm>>({
    resolver: zodResolver(ZPlanForm),
    defaultValues: { subscriptionPlan: user.subscriptionPlan, apiCallsLimit: String(customLimit(user, catalogue) ?? '') },
  });
  const [plan, limit] = useWatch({ control: form.control, name: ['subscriptionPlan', 'apiCallsLimit'] });
  const limitError = form.formState.errors.apiCallsLimit?.message;
  const [error, setError] = useState<string | null>(null);

  const planDefault = planLimit(catalogue, plan);

  const submit = form.handleSubmit(({ subscriptionPlan, apiCallsLimit }) => {
    setError(null);
    // Only what changed is sent, so the audit log records only that.
    const planChanged = subscriptionPlan !== user.subscriptionPlan;
    const limitChanged = apiCallsLimit !== customLimit(user, catalogue);
    if (!planChanged && !limitChanged) {
      onClose();
      return;
    }
    updateUser.mutate(
      {
        id: user.id,
        update: { ...(planChanged ? { subscriptionPlan } : {}), ...(limitChanged ? { apiCallsLimit } : {}) },
      },
      {
        onSuccess: (updated) => {
          toast({
            title: 'User plan updated successfully',
            description: `${displayName(updated)} is on ${findPlan(catalogue, updated.subscriptionPlan)?.name ?? updated.subscriptionPlan} with ${plural(updated.apiCallsLimit ?? planLimit(catalogue, updated.subscriptionPlan), 'document')} a month.`,
          });
          onClose();
        },
        onError: (err) => {
          if (isUnauthorizedError(err)) return;
          const read = readApiError(err, 'Please try again.');
          if (read.fields['apiCallsLimit']) form.setError('apiCallsLimit', { type: 'server', message: read.fields['apiCallsLimit'] });
          setError(read.message);
          toast({ variant: 'destructive', title: 'Failed to update user', description: read.message });
        },
      },
    );
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !updateUser.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <form onSubmit={(event) => void submit(event)} className="grid gap-5" aria-label="Plan and limit" noValidate>
          <DialogHeader>
            <DialogTitle>Plan and monthly limit</DialogTitle>
            <DialogDescription>
              Set the plan for <span className="font-medium text-foreground">{displayName(user)}</span> and, if needed, a limit of their own.
            </DialogDescription>
          </DialogHeader>
          <Field id="admin-user-plan" label="Plan">
            <NativeSelect id="admin-user-plan" {...form.register('subscriptionPlan')}>
              {catalogue.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({formatNumber(p.generationsPerMonth)} a month)
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            id="admin-user-limit"
            label="Monthly document limit"
            optional
            error={limitError}
            hint={`Leave blank to use the plan’s limit (${formatNumber(planDefault)} a month). Enterprise customers often get their own.`}
          >
            <div className="flex gap-2">
              <Input
                id="admin-user-limit"
                inputMode="numeric"
                {...form.register('apiCallsLimit')}
                placeholder={`Plan default (${formatNumber(planDefault)})`}
                aria-invalid={limitError ? true : undefined}
                aria-describedby={limitError ? 'admin-user-limit-error' : 'admin-user-limit-hint'}
                className="tabular-nums"
              />
              {limit !== '' && (
                <Button variant="outline" onClick={() => form.setValue('apiCallsLimit', '')} className="h-10">
                  Use plan default
                </Button>
              )}
            </div>
          </Field>
          <p className="rounded-lg bg-muted/60 px-3.5 py-2.5 text-[13px] text-muted-foreground">
            Documents this month: <span className="font-medium text-foreground tabular-nums">{formatNumber(user.apiCallsUsed)}</span>.
          </p>
          <FormDialogFooter error={limitError ? null : error} pending={updateUser.isPending} idle="Save changes" busy="Saving..." onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function ApiUsageDialog({ user, onClose }: { user: TAdminUser; onClose: () => void }) {
  const [keyId, setKeyId] = useState<string | undefined>();
  const usage = useUserApiUsage(user.id, keyId);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] max-w-4xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>API usage of {displayName(user)}</DialogTitle>
          <DialogDescription>Every call made with {user.email}’s keys in the last 30 days, by UTC day.</DialogDescription>
        </DialogHeader>
        <UsagePanel
          usage={usage}
          keyId={keyId}
          onKeyChange={setKeyId}
          csvHref={userApiUsageCsvUrl(user.id, keyId)}
          loading={<LoadingText>Loading usage...</LoadingText>}
          errorText="Could not load this user’s usage."
        />
      </DialogContent>
    </Dialog>
  );
}
