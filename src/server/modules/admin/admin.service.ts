import { createAdminContext, type TAdminDeps } from './admin-context.ts';
import { listUsers, markEmailVerified, requireAdmin, setRole, updateUser } from './admin-users.ts';
import { auditEntries } from './audit-log.ts';
import { createGateway, listGateways, updateGateway } from './payment-gateways.ts';
import { planCatalogue, publicPages, savePlanCatalogue, savePublicPages } from './site-content.ts';
import { deleteSetting, listSettings, saveSetting } from './system-settings.ts';
import { useCasesOf } from '../use-cases.ts';

export type { TAdminDeps } from './admin-context.ts';

/** The admin panel's users, plans, pages, settings, gateways and audit log, each use case in its own file. */
export function createAdminService(deps: TAdminDeps) {
  const ctx = createAdminContext(deps);
  const use = useCasesOf(ctx);
  return {
    audit: ctx.audit,
    requireAdmin: use(requireAdmin),
    listUsers: use(listUsers),
    setRole: use(setRole),
    markEmailVerified: use(markEmailVerified),
    updateUser: use(updateUser),
    planCatalogue: use(planCatalogue),
    savePlanCatalogue: use(savePlanCatalogue),
    publicPages: use(publicPages),
    savePublicPages: use(savePublicPages),
    auditEntries: use(auditEntries),
    listSettings: use(listSettings),
    saveSetting: use(saveSetting),
    deleteSetting: use(deleteSetting),
    listGateways: use(listGateways),
    createGateway: use(createGateway),
    updateGateway: use(updateGateway),
  };
}
export type TAdminService = ReturnType<typeof createAdminService>;
