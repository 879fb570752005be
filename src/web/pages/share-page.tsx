import { SharedDocument } from '../features/delivery/shared-document';

/** /s/:token — a shared document, outside the signed-in app: no account, no navigation, nothing else. */
export function SharePage({ token }: { token: string }) {
  return <SharedDocument token={token} />;
}
