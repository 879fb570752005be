import { FileCheck2Icon, FileClockIcon, PenLineIcon } from 'lucide-react';
import type { TDocument } from '../../../contract/documents';
import { IconAction } from '../documents/icon-action';
import { signedPdfUrl, useDocumentSignatureRequests } from './document-requests';

/**
 * Where a document's signing stands in its row. Kept apart from the flow's dialogs
 * (signature-flow.tsx), which load only when one opens: every list of documents shows these.
 */
export type TSignatureStep = 'send' | 'status' | null;

/** A document never sent opens the send dialog; one that was sent opens where its request stands. */
const hasSignatureRequest = (status: TDocument['status']) => status !== '' && status !== 'generated';

/**
 * A document row's signing actions: "Send for signature" or "Signature status", and, once signed,
 * "Download signed PDF". The caller renders the flow with the step these set.
 */
export function SignatureRowActions({ document, onStep }: { document: Pick<TDocument, 'id' | 'name' | 'status'>; onStep: (step: TSignatureStep) => void }) {
  if (!hasSignatureRequest(document.status)) {
    return <IconAction label={`Send ${document.name} for signature`} icon={PenLineIcon} onClick={() => onStep('send')} />;
  }
  return (
    <>
      <IconAction label={`Signature status of ${document.name}`} icon={FileClockIcon} onClick={() => onStep('status')} />
      {document.status === 'signed' && <SignedPdfAction document={document} />}
    </>
  );
}

function SignedPdfAction({ document }: { document: Pick<TDocument, 'id' | 'name'> }) {
  const requests = useDocumentSignatureRequests(document.id);
  const completed = requests.data?.find((r) => r.status === 'completed');
  if (!completed) return null;
  return <IconAction label={`Download signed PDF of ${document.name}`} icon={FileCheck2Icon} href={signedPdfUrl(completed.id)} download />;
}
