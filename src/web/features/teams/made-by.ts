import type { TTeamDetail } from '../../../contract/teams';
import { useAuth } from '../../hooks/use-auth';
import { useTeamId } from '../../lib/workspace';
import { useTeamDetail } from './api';

type TTeamMember = TTeamDetail['members'][number];

export type TMadeBy = {
  /** The team's members, the signed-in person first (the "Made by" filter lists them in this order). */
  members: readonly TTeamMember[];
  /** The signed-in person's id. */
  meId: string | undefined;
  /** Who made something, in words: their name, "You", "Former member" or "Deleted account". */
  nameOf: (createdBy: string | null) => string;
};

/** The words for who made something, given the team's members. */
export function madeByName(createdBy: string | null, members: readonly TTeamMember[], meId: string | undefined): string {
  // The server nulls the maker when their account is deleted; a left member's id stays.
  if (createdBy === null) return 'Deleted account';
  if (createdBy === meId) return 'You';
  return members.find((m) => m.userId === createdBy)?.name || 'Former member';
}

/**
 * Who made each format and document, in a team; null in the personal workspace (everything there
 * is the person's own) and while the members load, so nothing says "Former member" too early.
 */
export function useMadeBy(): TMadeBy | null {
  const teamId = useTeamId();
  const detail = useTeamDetail(teamId ?? '', teamId !== null, { fresh: true });
  const meId = useAuth().user?.id;
  // Until the fresh read is in, a newcomer would be called "Former member".
  if (!teamId || !detail.data || detail.isFetching) return null;
  const members = [...detail.data.members].sort((a, b) => Number(b.userId === meId) - Number(a.userId === meId));
  return { members, meId, nameOf: (createdBy) => madeByName(createdBy, members, meId) };
}

/** The maker inside a sentence ("by you", "Made by Ada Lovelace"). */
export function inSentence(name: string): string {
  return name === 'You' ? 'you' : name;
}
