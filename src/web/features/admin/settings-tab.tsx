import { ArrowRightIcon, PencilIcon, PlusIcon, SlidersHorizontalIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { QueryState, SkeletonList } from '../../components/query-state';
import { KNOWN_SETTINGS, type TSystemSetting } from '../../../contract/admin';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog } from '../../components/ui/dialog';
import { toast, toastApiError } from '../../hooks/use-toast';
import { cn } from '../../lib/utils';
import { formatDay } from './admin-ui';
import { useAdminSettings, useDeleteSetting } from './api';
import { ADMIN_TWO_FACTOR_SETTING } from '../../../contract/two-factor';
import { AdminTwoFactorCard } from './admin-two-factor';
import { DocumentSealCard } from './document-seal-card';
import { MailServerCard } from './mail-server-card';
import { PublicPagesCard } from './public-pages-card';
import { SignUpsCard } from './sign-ups-card';
import { SettingEditor, isEditable, isJsonSetting, parsedCatalogue, CATALOGUE_KEY, type EditorState } from './setting-editor';

function ValuePreview({ setting }: { setting: TSystemSetting }) {
  const json = isJsonSetting(setting.key, setting.value);
  const plans = setting.key === CATALOGUE_KEY ? parsedCatalogue(setting.value) : null;
  if (plans) {
    return (
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant="secondary">Plans</Badge>
        <span className="text-sm text-muted-foreground">
          {plans.length} plans: {plans.map((p) => p.name).join(', ')}
        </span>
      </div>
    );
  }
  return (
    <p
      className={cn('line-clamp-3 text-sm', json ? 'font-mono text-[13px] break-all' : 'break-words whitespace-pre-line text-foreground')}
      title={setting.value.length > 300 ? `${setting.value.slice(0, 300)}…` : setting.value}
    >
      {setting.value === '' ? <span className="text-muted-foreground italic">(empty)</span> : setting.value}
    </p>
  );
}

interface SettingRowProps {
  setting: TSystemSetting;
  onOpenPlans: () => void;
  onEdit: (setting: TSystemSetting) => void;
  onDelete: (setting: TSystemSetting) => void;
}

/** One setting: its key, value and description, with Edit (the catalogue: to the Plans tab) and Delete. */
function SettingRow({ setting: s, onOpenPlans, onEdit, onDelete }: SettingRowProps) {
  return (
    <li
      data-testid="setting-row"
      className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-4 gap-y-1.5 px-4 py-3.5 sm:px-5 md:grid-cols-[minmax(0,220px)_minmax(0,1fr)_minmax(0,1fr)_96px]"
    >
      <div className="min-w-0">
        <p className="truncate font-mono text-[13px] font-medium text-foreground" title={s.key}>
          {s.key}
        </p>
        <p className="mt-0.5 text-xs text-muted-foreground">Updated {formatDay(s.updatedAt)}</p>
      </div>
      <div className="col-start-1 row-start-2 min-w-0 md:col-start-auto md:row-start-auto">
        <ValuePreview setting={s} />
      </div>
      <p className="col-start-1 row-start-3 text-sm text-muted-foreground md:col-start-auto md:row-start-auto">
        {s.key === CATALOGUE_KEY ? (
          <>
            The plans and prices.{' '}
            <Button variant="link" className="h-auto p-0 text-sm" onClick={onOpenPlans}>
              Edit them in Plans
            </Button>
          </>
        ) : (
          s.description || (isEditable(s.key) ? KNOWN_SETTINGS[s.key] : <span className="italic">No description</span>)
        )}
      </p>
      <div className="col-start-2 row-span-3 row-start-1 flex items-start justify-end gap-1 md:col-start-auto md:row-span-1 md:row-start-auto">
        {s.key === CATALOGUE_KEY ? (
          <Button variant="ghost" size="icon-sm" onClick={onOpenPlans} aria-label="Edit the plans in the Plans tab" title="Edit in the Plans tab">
            <ArrowRightIcon aria-hidden />
          </Button>
        ) : (
          <Button variant="ghost" size="icon-sm" onClick={() => onEdit(s)} aria-label={`Edit ${s.key}`}>
            <PencilIcon aria-hidden />
          </Button>
        )}
        <Button
          variant="ghost"
          size="icon-sm"
          className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
          onClick={() => onDelete(s)}
          aria-label={`Delete ${s.key}`}
        >
          <Trash2Icon aria-hidden />
        </Button>
      </div>
    </li>
  );
}

/** The settings as a table on wide screens, as cards on narrow ones. */
function SettingsList({ list, onOpenPlans, onEdit, onDelete }: Omit<SettingRowProps, 'setting'> & { list: TSystemSetting[] }) {
  return (
    <Card className="overflow-hidden">
      <div className="hidden grid-cols-[minmax(0,220px)_minmax(0,1fr)_minmax(0,1fr)_96px] gap-4 border-b bg-muted/40 px-5 py-2.5 text-xs font-medium text-muted-foreground md:grid">
        <span>Key</span>
        <span>Value</span>
        <span>Description</span>
        <span className="text-right">
          <span className="sr-only">Actions</span>
        </span>
      </div>
      <ul className="divide-y" aria-label="System settings">
        {list.map((s) => (
          <SettingRow key={s.key} setting={s} onOpenPlans={onOpenPlans} onEdit={onEdit} onDelete={onDelete} />
        ))}
      </ul>
    </Card>
  );
}

/** System settings; the plan catalogue among them opens in the Plans tab (`onOpenPlans`). */
export function SettingsTab({ onOpenPlans }: { onOpenPlans: () => void }) {
  const settings = useAdminSettings(true);
  const deleteSetting = useDeleteSetting();
  const [editor, setEditor] = useState<EditorState>(null);
  const [toDelete, setToDelete] = useState<TSystemSetting | null>(null);
  const list = (settings.data ?? []).filter((s) => s.key !== ADMIN_TWO_FACTOR_SETTING);

  function confirmDelete() {
    if (!toDelete) return;
    const key = toDelete.key;
    deleteSetting.mutate(key, {
      onSuccess: () => {
        toast({ title: 'Setting deleted', description: `${key} now uses its default.` });
        setToDelete(null);
      },
      onError: (err) => {
        setToDelete(null);
        toastApiError('Failed to delete setting')(err);
      },
    });
  }

  return (
    <div className="space-y-4">
      <AdminTwoFactorCard />
      <SignUpsCard />
      <MailServerCard />
      <PublicPagesCard />
      <DocumentSealCard />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="max-w-xl text-sm text-muted-foreground">
          Settings change how this installation behaves: the e-signature site, the support and sales addresses, the seller printed on invoices, and how many
          emails a day users may send through the mail server above. A key that is not set uses its built-in default. Plans and prices have their own{' '}
          <Button variant="link" className="h-auto p-0 text-sm" onClick={onOpenPlans}>
            Plans tab
          </Button>
          .
        </p>
        {list.length > 0 && (
          <Button onClick={() => setEditor({ mode: 'create' })} className="shrink-0">
            <PlusIcon aria-hidden /> Add setting
          </Button>
        )}
      </div>

      <QueryState
        query={settings}
        loading={<SkeletonList count={3} />}
        errorText="Could not load settings."
        isEmpty={list.length === 0}
        empty={
          <EmptyStateCard
            icon={SlidersHorizontalIcon}
            title="No settings yet"
            description="Everything runs on the defaults. Add a setting to change the e-signature site, the support address or the seller on invoices."
            action={
              <Button onClick={() => setEditor({ mode: 'create' })}>
                <PlusIcon aria-hidden /> Add setting
              </Button>
            }
            className="py-14"
          />
        }
      >
        <SettingsList list={list} onOpenPlans={onOpenPlans} onEdit={(setting) => setEditor({ mode: 'edit', setting })} onDelete={setToDelete} />
      </QueryState>

      <Dialog open={editor !== null} onOpenChange={(open) => !open && setEditor(null)}>
        {editor && (
          <SettingEditor
            key={editor.mode === 'edit' ? `edit:${editor.setting.key}` : 'create'}
            editor={editor}
            existingKeys={list.map((s) => s.key)}
            onDone={() => setEditor(null)}
          />
        )}
      </Dialog>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this setting?"
        description={
          toDelete ? (
            <>
              <span className="font-mono text-foreground">{toDelete.key}</span> will be removed and the installation goes back to its default for it.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Delete setting"
        pendingLabel="Deleting..."
        pending={deleteSetting.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
