import { DownloadIcon, EyeIcon, MailIcon, Share2Icon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import type { TDocument } from '../../../contract/documents';
import { Badge } from '../../components/ui/badge';
import { DocumentDeliveryDialog } from '../delivery/document-delivery-dialog';
import { EmailDocumentDialog } from '../delivery/email-dialog';
import { documentDownloadUrl, documentPreviewUrl, statusLabel } from './api';
import { IconAction } from './icon-action';

/**
 * Preview, Download, Email, Share (its links and email log) and Delete for one document row; the
 * caller owns the layout around them.
 */
export function DocumentActions({ document, deleting, onDelete }: { document: Pick<TDocument, 'id' | 'name'>; deleting: boolean; onDelete: () => void }) {
  const [open, setOpen] = useState<'email' | 'share' | null>(null);
  return (
    <>
      <IconAction label={`Preview ${document.name}`} icon={EyeIcon} href={documentPreviewUrl(document.id)} external />
      <IconAction label={`Download ${document.name}`} icon={DownloadIcon} href={documentDownloadUrl(document.id)} external />
      <IconAction label={`Email ${document.name}`} icon={MailIcon} onClick={() => setOpen('email')} />
      <IconAction label={`Share and emails of ${document.name}`} icon={Share2Icon} onClick={() => setOpen('share')} />
      <IconAction label={`Delete ${document.name}`} icon={Trash2Icon} destructive disabled={deleting} onClick={onDelete} />
      {open === 'email' && <EmailDocumentDialog document={document} onOpenChange={(o) => setOpen(o ? 'email' : null)} />}
      {open === 'share' && <DocumentDeliveryDialog document={document} onOpenChange={(o) => setOpen(o ? 'share' : null)} onEmail={() => setOpen('email')} />}
    </>
  );
}

/** Every stored document is a PDF, so its kind badge is fixed; only the status varies. */
export function DocumentBadges({ status }: { status: TDocument['status'] }) {
  return (
    <>
      <Badge variant="secondary" className="px-1.5 py-0 text-[10px]">
        PDF
      </Badge>
      <Badge variant="success" className="px-1.5 py-0 text-[10px]">
        {statusLabel(status)}
      </Badge>
    </>
  );
}
