import { CreditCardIcon, HistoryIcon, LayersIcon, MailPlusIcon, SlidersHorizontalIcon, UserCogIcon, UserPlusIcon, type LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { ZGatewayName, type TAuditEntry } from '../../../contract/admin';
import { ZPlanId, type TPlanCatalogue } from '../../../contract/plans';
import { ZRole } from '../../../contract/user';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Card } from '../../components/ui/card';
import { QueryState, SkeletonList } from '../../components/query-state';
import { Pager } from '../../components/ui/pager';
import { usePlans } from '../../hooks/use-plans';
import { cn, formatDate, formatNumber } from '../../lib/utils';
import { useAuditLog } from './api';
import { GATEWAY_LABELS } from './labels';
import { IconTile } from '../../components/ui/icon-tile';

const PAGE_SIZE = 25;

/** One change in a detail: "Plan  Basic → Enterprise". */
type TChange = { label: string; from?: ReactNode; to: ReactNode };
type TReadable = { icon: LucideIcon; what: string; target: ReactNode; changes: TChange[] };

const ZFromTo = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });
const ZUserPlan = z.object({
  email: z.string().optional(),
  plan: ZFromTo(ZPlanId).optional(),
  limit: ZFromTo(z.number().nullable()).optional(),
});
const ZUserRole = z.object({ email: z.string().optional(), from: ZRole, to: ZRole });
const ZPlansUpdate = z.object({ changed: z.array(ZPlanId) });
const ZGatewayChange = z
  .object({
    gatewayName: ZGatewayName,
    isActive: z.boolean().optional(),
    keyId: z.string().optional(),
    keySecret: z.string().optional(),
    webhookSecret: z.string().optional(),
    configuration: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const CONFIGURATION_LABELS: Record<string, string> = {
  apiBaseUrl: 'API base address',
  checkoutScriptUrl: 'Checkout script',
  webhookId: 'Webhook ID',
};

const ROLE_LABELS = { user: 'User', admin: 'Admin' } as const;

/** Actions on one account or invitation, recorded with its address and nothing else. */
const ADDRESS_ACTIONS: Record<string, { icon: LucideIcon; what: string }> = {
  'user.email_verified': { icon: UserCogIcon, what: 'Marked an address verified' },
  'user.suspend': { icon: UserCogIcon, what: 'Suspended an account' },
  'user.restore': { icon: UserCogIcon, what: 'Restored an account' },
  'user.sign_out_everywhere': { icon: UserCogIcon, what: 'Signed an account out everywhere' },
  'user.password_reset_link': { icon: UserCogIcon, what: 'Sent a password-reset link' },
  'user.two_factor_reset': { icon: UserCogIcon, what: 'Reset two-factor sign-in' },
  'invitation.create': { icon: MailPlusIcon, what: 'Invited someone' },
  'invitation.resend': { icon: MailPlusIcon, what: 'Resent an invitation' },
  'invitation.revoke': { icon: MailPlusIcon, what: 'Revoked an invitation' },
};
const SIGN_UP_MODE_LABELS: Record<string, string> = { open: 'Open', invitation: 'Invitation only', sso: 'Single sign-on only' };
const ZSignUpsUpdate = z.object({ mode: ZFromTo(z.string()), allowedDomains: ZFromTo(z.array(z.string())) });

const Mono = ({ children }: { children: ReactNode }) => <span className="font-mono text-[12.5px] break-all">{children}</span>;

/** A secret's fate as the log keeps it: never its value, only "set", "not set" or "replaced". */
function secretChange(label: string, state: string | undefined): TChange[] {
  if (state === undefined) return [];
  return [{ label, to: state === 'replaced' ? 'Replaced' : state === 'set' ? 'Set' : 'Not set' }];
}

/** Any other detail, as plainly as it can be said. */
function plainValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="text-muted-foreground italic">empty</span>;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'string') return value;
  return <Mono>{JSON.stringify(value)}</Mono>;
}

/** Ports, years and ids are names, not quantities: printed as stored, never grouped (2626, not 2,626). */
const IDENTIFIER_KEY = /(port|year|id)$/i;

function genericChanges(details: Record<string, unknown>): TChange[] {
  return Object.entries(details).map(([label, value]) => {
    const show = (v: unknown) => (IDENTIFIER_KEY.test(label) && typeof v === 'number' ? String(v) : plainValue(v));
    const fromTo = ZFromTo(z.unknown()).safeParse(value);
    return fromTo.success ? { label, from: show(fromTo.data.from), to: show(fromTo.data.to) } : { label, to: show(value) };
  });
}

type TPlanName = (id: string) => string;

/** Entries about accounts: who may sign up, roles, plans and limits, deletions. */
function readAccountEntry(entry: TAuditEntry, planName: TPlanName): TReadable | null {
  const d = entry.details;
  switch (entry.action) {
    case 'account.delete':
      // The entry keeps no address on purpose: an account that is gone leaves only its id.
      return {
        icon: UserCogIcon,
        what: d['by'] === 'admin' ? 'Deleted an account' : 'An account was deleted by its owner',
        target: <Mono>{entry.targetId}</Mono>,
        changes: [],
      };
    case 'sign-ups.update': {
      const parsed = ZSignUpsUpdate.safeParse(d);
      if (!parsed.success) break;
      const { mode, allowedDomains } = parsed.data;
      const domains = (list: string[]) => (list.length > 0 ? list.join(', ') : 'Any');
      return {
        icon: UserPlusIcon,
        what: 'Changed who may sign up',
        target: 'Sign-ups',
        changes: [
          { label: 'Mode', from: SIGN_UP_MODE_LABELS[mode.from] ?? mode.from, to: SIGN_UP_MODE_LABELS[mode.to] ?? mode.to },
          { label: 'Domains', from: domains(allowedDomains.from), to: domains(allowedDomains.to) },
        ],
      };
    }
    case 'user.role': {
      const parsed = ZUserRole.safeParse(d);
      if (!parsed.success) break;
      return {
        icon: UserCogIcon,
        what: 'Changed a role',
        target: parsed.data.email ?? entry.targetId,
        changes: [{ label: 'Role', from: ROLE_LABELS[parsed.data.from], to: ROLE_LABELS[parsed.data.to] }],
      };
    }
    case 'user.plan': {
      const parsed = ZUserPlan.safeParse(d);
      if (!parsed.success) break;
      const { plan, limit } = parsed.data;
      const limitText = (value: number | null) => (value === null ? 'Plan default' : formatNumber(value));
      return {
        icon: UserCogIcon,
        what: 'Changed a plan or limit',
        target: parsed.data.email ?? entry.targetId,
        changes: [
          ...(plan ? [{ label: 'Plan', from: planName(plan.from), to: planName(plan.to) }] : []),
          ...(limit ? [{ label: 'Monthly limit', from: limitText(limit.from), to: limitText(limit.to) }] : []),
        ],
      };
    }
    case 'user.admin-command': {
      const email = typeof d['email'] === 'string' ? d['email'] : entry.targetId;
      return {
        icon: UserCogIcon,
        what: d['created'] === true ? 'Created an admin with npm run admin:create' : 'Made an admin with npm run admin:create',
        target: email,
        changes: [{ label: 'Role', to: 'Admin, address verified, password set' }],
      };
    }
  }
  return null;
}

/** Entries about the installation: plans, settings, public pages, outgoing mail, gateways. */
function readSystemEntry(entry: TAuditEntry, planName: TPlanName): TReadable | null {
  const d = entry.details;
  switch (entry.action) {
    case 'plans.update': {
      const parsed = ZPlansUpdate.safeParse(d);
      if (!parsed.success) break;
      const changed = parsed.data.changed.map(planName);
      return {
        icon: LayersIcon,
        what: 'Edited the plans',
        target: 'Plan catalogue',
        changes: [{ label: 'Changed', to: changed.length > 0 ? changed.join(', ') : 'Nothing (saved as it was)' }],
      };
    }
    case 'setting.save':
    case 'setting.delete': {
      const saved = entry.action === 'setting.save';
      const value = typeof d['value'] === 'string' ? d['value'] : undefined;
      return {
        icon: SlidersHorizontalIcon,
        what: saved ? 'Saved a setting' : 'Deleted a setting',
        target: <Mono>{entry.targetId}</Mono>,
        changes: saved
          ? value !== undefined
            ? [{ label: 'Value', to: <span className="whitespace-pre-line">{value === '' ? 'empty' : value}</span> }]
            : []
          : [{ label: 'Value', to: 'Back to the default' }],
      };
    }
    case 'public-pages.update': {
      const count = (key: string) => {
        const value = d[key];
        return typeof value === 'number' ? formatNumber(value) : '—';
      };
      return {
        icon: SlidersHorizontalIcon,
        what: 'Edited the public pages',
        target: 'Landing and About pages',
        changes: [
          { label: 'Figures', to: count('figures') },
          { label: 'Testimonials', to: count('testimonials') },
          { label: 'Team', to: count('team') },
        ],
      };
    }
    case 'mail.update':
    case 'mail.delete': {
      const saved = entry.action === 'mail.update';
      const MAIL_LABELS: Record<string, string> = { host: 'Host', port: 'Port', secure: 'Secure', user: 'User', fromAddress: 'From', fromName: 'From name' };
      return {
        icon: SlidersHorizontalIcon,
        what: saved ? 'Changed the outgoing mail server' : 'Removed the outgoing mail server',
        target: 'Outgoing mail',
        changes: saved
          ? [
              ...Object.entries(MAIL_LABELS)
                .filter(([key]) => key in d)
                .map(([key, label]) => ({ label, to: IDENTIFIER_KEY.test(key) && typeof d[key] === 'number' ? String(d[key]) : plainValue(d[key]) })),
              ...secretChange('Password', d['password'] === 'replaced' ? 'replaced' : undefined),
            ]
          : [],
      };
    }
    case 'gateway.create':
    case 'gateway.update': {
      const parsed = ZGatewayChange.safeParse(d);
      if (!parsed.success) break;
      const g = parsed.data;
      const created = entry.action === 'gateway.create';
      const configuration = Object.entries(g.configuration ?? {}).map(([key, value]) => ({
        label: CONFIGURATION_LABELS[key] ?? key,
        to: typeof value === 'string' && value !== '' ? <Mono>{value}</Mono> : plainValue(value),
      }));
      return {
        icon: CreditCardIcon,
        what: created ? 'Added a gateway' : 'Changed a gateway',
        target: GATEWAY_LABELS[g.gatewayName],
        changes: [
          ...(g.isActive !== undefined ? [{ label: 'Status', to: g.isActive ? 'Active' : 'Inactive' }] : []),
          ...(g.keyId !== undefined ? [{ label: 'Key ID', to: <Mono>{g.keyId}</Mono> }] : []),
          ...secretChange('Key secret', g.keySecret),
          ...secretChange('Webhook secret', g.webhookSecret),
          ...(g.configuration && configuration.length === 0 ? [{ label: 'Addresses', to: 'The gateway’s own' }] : configuration),
        ],
      };
    }
  }
  return null;
}

/**
 * What an entry means, in words: the shapes the server records for users, plans, settings and
 * gateways are spelled out; anything else is listed as it was stored.
 */
function readEntry(entry: TAuditEntry, catalogue: TPlanCatalogue): TReadable {
  const planName = (id: string) => catalogue.find((p) => p.id === id)?.name ?? id;
  const d = entry.details;
  const byAddress = ADDRESS_ACTIONS[entry.action];
  if (byAddress && typeof d['email'] === 'string') {
    return { icon: byAddress.icon, what: byAddress.what, target: d['email'], changes: d['mailed'] === false ? [{ label: 'Email', to: 'Not sent' }] : [] };
  }
  return (
    readAccountEntry(entry, planName) ??
    readSystemEntry(entry, planName) ?? { icon: HistoryIcon, what: entry.action, target: `${entry.targetType} ${entry.targetId}`, changes: genericChanges(d) }
  );
}

function Changes({ changes }: { changes: TChange[] }) {
  if (changes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <dl className="grid gap-1 text-[13px]">
      {changes.map((c, i) => (
        <div key={`${c.label}-${i}`} className="flex min-w-0 flex-wrap gap-x-1.5">
          <dt className="text-muted-foreground">{c.label}</dt>
          <dd className="min-w-0 text-foreground">
            {c.from !== undefined && (
              <>
                <span className="text-muted-foreground">{c.from}</span>
                <span className="px-1 text-muted-foreground" aria-label="changed to">
                  →
                </span>
              </>
            )}
            {c.to}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const GRID = 'xl:grid-cols-[150px_minmax(0,0.9fr)_minmax(0,1.2fr)_minmax(0,1.4fr)]';

/** Who changed what, newest first: gateways, plans, settings and users. */
export function AuditTab() {
  const [offset, setOffset] = useState(0);
  const log = useAuditLog(offset, PAGE_SIZE);
  const { plans: catalogue } = usePlans();
  const entries = log.data?.entries ?? [];

  return (
    <div className="space-y-4">
      <p className="max-w-2xl text-sm text-muted-foreground">
        Every change an admin makes to a user’s role, plan or limit, to the plans, to a setting or to a payment gateway, with who made it and when. Secrets
        never appear here: only that one was set or replaced.
      </p>
      <QueryState
        query={log}
        loading={<SkeletonList count={4} />}
        errorText="Could not load the audit log."
        isEmpty={entries.length === 0}
        empty={
          <EmptyStateCard
            icon={HistoryIcon}
            title="Nothing changed yet"
            description="Changes to users, plans, settings and payment gateways are recorded here as admins make them."
            className="py-14"
          />
        }
      >
        <Card className={cn('overflow-hidden', log.isPlaceholderData && 'opacity-70')}>
          <div className={cn('hidden gap-4 border-b bg-muted/40 px-5 py-2.5 text-xs font-medium text-muted-foreground xl:grid', GRID)} aria-hidden>
            <span>When</span>
            <span>Who</span>
            <span>What</span>
            <span>Details</span>
          </div>
          <ul className="divide-y" aria-label="Audit log">
            {entries.map((entry) => {
              const read = readEntry(entry, catalogue);
              const Icon = read.icon;
              return (
                <li key={entry.id} data-testid="audit-entry" className={cn('grid gap-x-4 gap-y-2 px-4 py-3.5 sm:px-5 xl:items-start', GRID)}>
                  <p className="order-4 text-xs text-muted-foreground tabular-nums xl:order-none xl:pt-0.5 xl:text-[13px] xl:text-foreground">
                    <time dateTime={entry.createdAt}>{formatDate(entry.createdAt, true)}</time>
                  </p>
                  <p
                    className="order-3 min-w-0 truncate text-xs text-muted-foreground xl:order-none xl:pt-0.5 xl:text-[13px] xl:text-foreground"
                    title={entry.actorEmail}
                  >
                    <span className="xl:sr-only">By </span>
                    {entry.actorEmail}
                  </p>
                  <div className="order-1 flex min-w-0 items-start gap-2.5 xl:order-none">
                    <IconTile icon={Icon} size="sm" tone="muted" className="mt-0.5" />
                    <div className="min-w-0">
                      <p className="text-sm font-medium text-foreground" data-testid="audit-what">
                        {read.what}
                      </p>
                      <p className="truncate text-[13px] text-muted-foreground" data-testid="audit-target">
                        {read.target}
                      </p>
                    </div>
                  </div>
                  <div className="order-2 min-w-0 xl:order-none" data-testid="audit-details">
                    <Changes changes={read.changes} />
                  </div>
                </li>
              );
            })}
          </ul>
          <Pager
            label="Audit log pages"
            offset={offset}
            pageSize={PAGE_SIZE}
            shown={entries.length}
            total={log.data?.total ?? 0}
            busy={log.isFetching}
            onChange={setOffset}
          />
        </Card>
      </QueryState>
    </div>
  );
}
