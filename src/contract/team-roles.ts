/**
 * Teams: workspaces several people share. Formats, documents, batches, assets, share links, API
 * keys, webhooks, email settings, usage and the plan belong to a workspace, a person's own or a
 * team's; the web app says which with the TEAM_HEADER on each call (none: the personal one).
 * Kept apart from the schemas (teams.ts): the web app needs these before anything else.
 */
export const TEAM_HEADER = 'x-formwork-team';

/** From least to most: what each role may do includes everything the ones before it may. */
export const TEAM_ROLES = ['member', 'editor', 'admin', 'owner'] as const;
export type TTeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TTeamRole, string> = { owner: 'Owner', admin: 'Admin', editor: 'Editor', member: 'Member' };

/** What each role may do, in a sentence (the invite form and the members table say it). */
export const TEAM_ROLE_DESCRIPTIONS: Record<TTeamRole, string> = {
  member: 'Uses the team’s formats: fills them in, makes, sends and shares documents, runs batches.',
  editor: 'Everything a member does, and creates, edits and deletes formats.',
  admin: 'Everything an editor does, and invites and removes people, and manages API keys, webhooks and email settings.',
  owner: 'Everything, including the plan and billing, renaming the team and deleting it.',
};

export function roleAtLeast(role: TTeamRole, least: TTeamRole): boolean {
  return TEAM_ROLES.indexOf(role) >= TEAM_ROLES.indexOf(least);
}
