import type { TPlanCatalogue } from '../../../contract/plans.ts';
import { KNOWN_SETTINGS } from '../../../contract/admin.ts';
import { PUBLIC_PAGES_SETTING, type TPublicPages } from '../../../contract/public-pages.ts';
import type { TAdminContext } from './admin-context.ts';

const PUBLIC_PAGES_DESCRIPTION = 'Figures, testimonials and team shown on the landing and About pages.';

/** The plans on offer, as the admin edits them. */
export async function planCatalogue({ deps }: TAdminContext): Promise<TPlanCatalogue> {
  return deps.system.planCatalogue();
}

export async function savePlanCatalogue({ deps, audit }: TAdminContext, actorId: string, catalogue: TPlanCatalogue): Promise<TPlanCatalogue> {
  const before = await deps.system.planCatalogue();
  await deps.admin.upsertSetting('plans.catalogue', JSON.stringify(catalogue), KNOWN_SETTINGS['plans.catalogue']);
  deps.system.forgetPlanCatalogue();
  const changed = catalogue.filter((plan) => JSON.stringify(plan) !== JSON.stringify(before.find((p) => p.id === plan.id))).map((p) => p.id);
  await audit(actorId, 'plans.update', 'plans', 'catalogue', { changed });
  return deps.system.planCatalogue();
}

/** The landing and About pages' content. */
export function publicPages({ deps }: TAdminContext): Promise<TPublicPages> {
  return deps.system.publicPages();
}

/** Replaces the whole content (the editor sends every list); an empty list hides its section. */
export async function savePublicPages({ deps, audit }: TAdminContext, actorId: string, pages: TPublicPages): Promise<TPublicPages> {
  await deps.admin.upsertSetting(PUBLIC_PAGES_SETTING, JSON.stringify(pages), PUBLIC_PAGES_DESCRIPTION);
  deps.system.forgetPlanCatalogue();
  await audit(actorId, 'public-pages.update', 'setting', PUBLIC_PAGES_SETTING, {
    figures: pages.figures.length,
    testimonials: pages.testimonials.length,
    team: pages.team.length,
  });
  return deps.system.publicPages();
}
