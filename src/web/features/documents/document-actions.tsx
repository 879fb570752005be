import { DownloadIcon, EyeIcon, Trash2Icon } from 'lucide-react';
import type { TDocument } from '../../../contract/documents';
import { Badge } from '../../components/ui/badge';
import { documentDownloadUrl, documentPreviewUrl, statusLabel } from './api';
import { IconAction } from './icon-action';

/** Preview, Download and Delete for one document row; the caller owns the layout around them. */
export function DocumentActions({
  document,
  deleting,
  onDelete,
}: {
  document: Pick<TDocument, 'id' | 'name'>;
  deleting: boolean;
  onDelete: () => void;
}) {
  return (
    <>
      <IconAction label={`Preview ${document.name}`} icon={EyeIcon} href={documentPreviewUrl(document.id)} external />
      <IconAction label={`Download ${document.name}`} icon={DownloadIcon} href={documentDownloadUrl(document.id)} external />
      <IconAction label={`Delete ${document.name}`} icon={Trash2Icon} destructive disabled={deleting} onClick={onDelete} />
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
