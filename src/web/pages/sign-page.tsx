import { SigningView } from '../features/signing/signer/signing-view';

/** /sign/:token — one signer's page, outside the signed-in app: no account, no navigation, nothing else. */
export function SignPage({ token }: { token: string }) {
  return <SigningView token={token} />;
}
