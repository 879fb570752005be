import { CheckIcon, DownloadIcon, EyeIcon, MailIcon, PenLineIcon, TriangleAlertIcon } from 'lucide-react';
import { useRef, useState, type Ref, type RefObject } from 'react';
import type { TDocument } from '../../../contract/documents';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { EmailDocumentDialog, recipientOf } from '../delivery/email-dialog';
import { useFormat } from '../formats/api';
import { documentDownloadUrl, documentPreviewUrl } from '../documents/api';
import { SignatureFlow } from '../signing/signature-flow';
import type { TSignatureStep } from '../signing/signature-row-actions';
import { IconTile } from '../../components/ui/icon-tile';

function ActionTile({
  icon: Icon,
  title,
  text,
  primary,
  ref,
  ...target
}: {
  icon: typeof DownloadIcon;
  title: string;
  text: string;
  primary?: boolean;
  ref?: Ref<HTMLAnchorElement>;
} & ({ href: string; download?: boolean; onClick?: never } | { onClick: () => void; href?: never; download?: never })) {
  const className =
    'group flex w-full cursor-pointer items-center gap-3 rounded-lg border p-3.5 text-left transition-[border-color,background-color,box-shadow] hover:border-primary/40 hover:bg-primary-soft/40 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none ' +
    (primary ? 'border-primary/30 bg-primary-soft/30' : 'bg-background');
  const body = (
    <>
      <IconTile icon={Icon} className="rounded-md" />
      <span className="min-w-0">
        <span className="block text-sm font-semibold">{title}</span>
        <span className="block text-xs text-muted-foreground">{text}</span>
      </span>
    </>
  );
  if (target.onClick) {
    return (
      <button type="button" onClick={target.onClick} className={className}>
        {body}
      </button>
    );
  }
  return (
    <a ref={ref} href={target.href} {...(target.download ? { download: '' } : { target: '_blank', rel: 'noopener' })} className={className}>
      {body}
    </a>
  );
}

export function GenerationSuccessDialog({
  document,
  onOpenChange,
  onGenerateAnother,
  returnFocus,
}: {
  document: TDocument | null;
  onOpenChange: (open: boolean) => void;
  onGenerateAnother: () => void;
  /** Where focus goes back to on close (the Generate button, which was disabled while the document was made). */
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  const [emailing, setEmailing] = useState(false);
  const [signing, setSigning] = useState<TSignatureStep>(null);
  const download = useRef<HTMLAnchorElement>(null);
  // The form that made the document has its format loaded already.
  const format = useFormat(document?.formatId ?? undefined);
  const suggestedTo = document && format.data ? recipientOf(document.data, format.data.placeholders) : null;
  return (
    <>
      <Dialog open={document !== null} onOpenChange={onOpenChange}>
        <DialogContent
          className="sm:max-w-md"
          // Download is what most people came for: Enter downloads.
          onOpenAutoFocus={(event) => {
            if (!download.current) return;
            event.preventDefault();
            download.current.focus();
          }}
          // What opened the dialog was a submit button disabled while generating, so Radix has nothing to return to.
          onCloseAutoFocus={(event) => {
            const target = returnFocus?.current;
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
        >
          {document && (
            <>
              <DialogHeader className="items-start">
                <span className="mb-2 flex size-11 items-center justify-center rounded-full bg-success-soft text-[oklch(0.45_0.12_155)]">
                  <CheckIcon className="size-5" aria-hidden />
                </span>
                <DialogTitle>Document generated</DialogTitle>
                <DialogDescription className="break-words">
                  <span className="font-medium text-foreground">{document.name}</span> is ready. It is saved in Recent Documents.
                </DialogDescription>
              </DialogHeader>
              {document.warnings.length > 0 && (
                <div
                  className="flex items-start gap-2.5 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm"
                  role="status"
                  data-testid="render-warnings"
                >
                  <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
                  <div className="min-w-0">
                    <p className="font-medium">Check the PDF: not everything could be drawn as written.</p>
                    <ul className="mt-1 list-disc space-y-0.5 pl-4 break-words text-muted-foreground">
                      {document.warnings.map((warning, i) => (
                        <li key={i}>{warning.message}</li>
                      ))}
                    </ul>
                  </div>
                </div>
              )}
              <div className="grid gap-2">
                <ActionTile
                  ref={download}
                  href={documentDownloadUrl(document.id)}
                  icon={DownloadIcon}
                  title="Download"
                  text="Save the PDF to your device"
                  download
                  primary
                />
                <ActionTile
                  icon={PenLineIcon}
                  title="eSign"
                  text="Send it for signature: each signer signs in the browser"
                  onClick={() => setSigning('send')}
                />
                <ActionTile icon={MailIcon} title="Email" text="Send the PDF to someone by email" onClick={() => setEmailing(true)} />
              </div>
              <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:items-center sm:justify-between">
                <Button variant="ghost" size="sm" asChild>
                  <a href={documentPreviewUrl(document.id)} target="_blank" rel="noopener">
                    <EyeIcon /> Preview
                  </a>
                </Button>
                <Button variant="outline" size="sm" onClick={onGenerateAnother}>
                  Generate another
                </Button>
              </div>
            </>
          )}
        </DialogContent>
      </Dialog>
      <EmailDocumentDialog document={emailing ? document : null} onOpenChange={setEmailing} suggestedTo={suggestedTo} />
      {document && signing && <SignatureFlow document={document} step={signing} onStepChange={setSigning} />}
    </>
  );
}
