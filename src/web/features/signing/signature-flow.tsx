import { SendForSignatureDialog, type TSigningDocument } from './send-for-signature-dialog';
import { SignatureRequestPanel } from './signature-request-panel';

import type { TSignatureStep } from './signature-row-actions';

/** Sending for signature, then following the request: sending opens the request's panel. */
export function SignatureFlow({
  document,
  step,
  onStepChange,
}: {
  document: TSigningDocument;
  step: TSignatureStep;
  onStepChange: (step: TSignatureStep) => void;
}) {
  return (
    <>
      <SendForSignatureDialog
        document={step === 'send' ? document : null}
        onOpenChange={(open) => onStepChange(open ? 'send' : null)}
        onSent={() => onStepChange('status')}
      />
      <SignatureRequestPanel
        document={step === 'status' ? document : null}
        onOpenChange={(open) => onStepChange(open ? 'status' : null)}
        onSendAgain={() => onStepChange('send')}
      />
    </>
  );
}
