import { EyeIcon } from 'lucide-react';
import { useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import type { TFormat } from '../../../contract/formats';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { LivePdfPane } from '../../components/ui/live-pdf-pane';
import { useLivePdf } from '../../hooks/use-live-pdf';
import { toDocumentData, type TFormValues } from './resolver';

const EMPTY_HINT = 'The document appears here as you fill in the form.';
const FRAME_TITLE = 'Live PDF preview of the document being filled in';

/** The saved format filled with what has been typed so far; empty fields show as [Label]. */
function useFilledPreview(format: TFormat, control: Control<TFormValues>, enabled: boolean) {
  const values = useWatch({ control });
  const body = JSON.stringify({ data: toDocumentData(format.placeholders, values as TFormValues) });
  return useLivePdf(`/api/formats/${encodeURIComponent(format.id)}/preview`, body, enabled);
}

/** Beside the form on wide screens. */
export function FilledPreviewPane({ format, control }: { format: TFormat; control: Control<TFormValues> }) {
  const state = useFilledPreview(format, control, true);
  return <LivePdfPane state={state} hasContent emptyHint={EMPTY_HINT} frameTitle={FRAME_TITLE} />;
}

/** On narrower screens: a Preview button that opens the same preview over the form. */
export function FilledPreviewButton({ format, control }: { format: TFormat; control: Control<TFormValues> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="outline" size="lg" onClick={() => setOpen(true)}>
        <EyeIcon aria-hidden /> Preview
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="flex h-[90dvh] max-w-3xl flex-col gap-3">
          <DialogHeader>
            <DialogTitle>Preview</DialogTitle>
            <DialogDescription>The document as filled in so far; empty fields show their label in brackets.</DialogDescription>
          </DialogHeader>
          {open && <OpenPreview format={format} control={control} />}
        </DialogContent>
      </Dialog>
    </>
  );
}

function OpenPreview({ format, control }: { format: TFormat; control: Control<TFormValues> }) {
  const state = useFilledPreview(format, control, true);
  return <LivePdfPane state={state} hasContent emptyHint={EMPTY_HINT} frameTitle={FRAME_TITLE} className="min-h-0 flex-1" />;
}
