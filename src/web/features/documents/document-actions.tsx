import { CheckIcon, DownloadIcon, EyeIcon, MailIcon, Share2Icon, Trash2Icon } from 'lucide-react';
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { TDocument, TDocumentStatus } from '../../../contract/documents';
import { Badge } from '../../components/ui/badge';
import { SignatureRowActions, type TSignatureStep } from '../signing/signature-row-actions';
import { documentDownloadUrl, documentPreviewUrl, statusLabel } from './api';
import { IconAction } from './icon-action';

// A row's dialogs load when one opens: lists of documents (the dashboard's among them) draw sooner.
const EmailDocumentDialog = lazy(() => import('../delivery/email-dialog').then((m) => ({ default: m.EmailDocumentDialog })));
const DocumentDeliveryDialog = lazy(() => import('../delivery/document-delivery-dialog').then((m) => ({ default: m.DocumentDeliveryDialog })));
const SignatureFlow = lazy(() => import('../signing/signature-flow').then((m) => ({ default: m.SignatureFlow })));

/**
 * Preview, Download, Email, Share (its links and email log), signing (send, or follow the request)
 * and Delete for one document row; the caller owns the layout around them.
 */
export function DocumentActions({
  document,
  deleting,
  onDelete,
}: {
  document: Pick<TDocument, 'id' | 'name' | 'formatId' | 'status'>;
  deleting: boolean;
  onDelete: () => void;
}) {
  const [open, setOpen] = useState<'email' | 'share' | null>(null);
  const [signing, setSigning] = useState<TSignatureStep>(null);
  return (
    <>
      <IconAction label={`Preview ${document.name}`} icon={EyeIcon} href={documentPreviewUrl(document.id)} external />
      <IconAction label={`Download ${document.name}`} icon={DownloadIcon} href={documentDownloadUrl(document.id)} external />
      <IconAction label={`Email ${document.name}`} icon={MailIcon} onClick={() => setOpen('email')} />
      <IconAction label={`Share and emails of ${document.name}`} icon={Share2Icon} onClick={() => setOpen('share')} />
      <SignatureRowActions document={document} onStep={setSigning} />
      <IconAction label={`Delete ${document.name}`} icon={Trash2Icon} destructive disabled={deleting} onClick={onDelete} />
      <Suspense fallback={null}>
        {open === 'email' && <EmailDocumentDialog document={document} onOpenChange={(o) => setOpen(o ? 'email' : null)} />}
        {open === 'share' && <DocumentDeliveryDialog document={document} onOpenChange={(o) => setOpen(o ? 'share' : null)} onEmail={() => setOpen('email')} />}
        {signing && <SignatureFlow document={document} step={signing} onStepChange={setSigning} />}
      </Suspense>
    </>
  );
}

/** Each status in a colour that says whether it waits on someone, went well, or did not. */
const STATUS_VARIANT: Partial<Record<TDocumentStatus, ComponentProps<typeof Badge>['variant']>> = {
  out_for_signature: 'soft',
  declined: 'destructive',
  expired: 'secondary',
};

/** Every stored document is a PDF, so its kind badge is fixed; only the status varies. */
export function DocumentBadges({ status }: { status: TDocument['status'] }) {
  return (
    <>
      <Badge variant="secondary" className="px-1.5 py-0 text-[10px]">
        PDF
      </Badge>
      <Badge variant={STATUS_VARIANT[status as TDocumentStatus] ?? 'success'} className="px-1.5 py-0 text-[10px]" data-testid="document-status">
        {status === 'signed' && <CheckIcon aria-hidden />}
        {statusLabel(status)}
      </Badge>
    </>
  );
}
