import { InvitationView } from '../features/teams/invitation-view';
import { useDocumentTitle } from '../hooks/use-document-title';

/** /invite/:token — a team invitation's link, opened signed in or not. */
export function InvitePage({ token }: { token: string }) {
  useDocumentTitle('Team invitation');
  return <InvitationView token={token} />;
}
