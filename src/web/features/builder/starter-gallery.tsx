import {
  ArrowRightIcon,
  AwardIcon,
  BriefcaseBusinessIcon,
  FileTextIcon,
  HouseIcon,
  LayoutTemplateIcon,
  ReceiptTextIcon,
  ShieldCheckIcon,
  StethoscopeIcon,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { placeholderLabel } from '../../../contract/placeholder-labels';
import type { TStarterFormat } from '../../../contract/starter-formats';
import { STARTER_CATALOGUE } from '../../../contract/starter-formats/catalogue';
import type { TStarterFormatInput } from '../../../contract/starter-formats/shared';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { cn } from '../../lib/utils';
import { IMPORTED_DRAFT_HREF, storeImportedDraft } from './imported-draft-store';

const ICONS: Record<string, LucideIcon> = {
  'offer-letter': BriefcaseBusinessIcon,
  nda: ShieldCheckIcon,
  invoice: ReceiptTextIcon,
  'rental-agreement': HouseIcon,
  'patient-consent': StethoscopeIcon,
  certificate: AwardIcon,
};

export function starterDraft(starter: TStarterFormat) {
  return { name: starter.name, description: starter.description, content: starter.content, placeholders: starter.placeholders };
}

/*
 * A starter is parsed by the format schemas only once chosen: the cards need none of that code, and
 * the dashboard shows them to every new person.
 */
const parsedStarter = async (starter: TStarterFormatInput): Promise<TStarterFormat> =>
  (await import('../../../contract/starter-formats/index')).parseStarter(starter);

function starterNotLoaded() {
  toast({ variant: 'destructive', title: 'The template did not open', description: 'It could not be loaded. Check your connection and try again.' });
}

/** Opens a starter in the builder as an unsaved draft: nothing is stored until the user saves. */
function useOpenStarter() {
  const [, navigate] = useLocation();
  return (starter: TStarterFormat) => {
    storeImportedDraft(starter.name, { draft: starterDraft(starter), warnings: [] }, 'starter');
    navigate(IMPORTED_DRAFT_HREF);
  };
}

function StarterCard({ starter, onOpen }: { starter: TStarterFormatInput; onOpen: (starter: TStarterFormatInput) => void }) {
  const Icon = ICONS[starter.id] ?? FileTextIcon;
  const fields = starter.placeholders.map((p) => placeholderLabel(p));
  const shown = fields.slice(0, 3).join(', ');
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(starter)}
        className="group flex h-full w-full flex-col rounded-lg border bg-background p-4 text-left shadow-xs transition-[border-color,box-shadow] hover:border-primary/40 hover:shadow-card focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        data-testid={`starter-${starter.id}`}
      >
        <span className="flex items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary" aria-hidden>
            <Icon className="size-[18px]" />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-foreground">{starter.name}</span>
            <span className="block text-xs text-muted-foreground">{starter.category}</span>
          </span>
          <ArrowRightIcon
            className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
            aria-hidden
          />
        </span>
        <span className="mt-3 line-clamp-2 text-sm text-muted-foreground">{starter.description}</span>
        <span className="mt-3 text-xs text-muted-foreground">
          {fields.length} fields: {shown}
          {fields.length > 3 ? ', …' : ''}
        </span>
      </button>
    </li>
  );
}

/** The starter formats as a grid of cards; choosing one opens it in the builder (or calls `onChoose`). */
export function StarterGallery({ className, onChoose }: { className?: string; onChoose?: (starter: TStarterFormat) => void }) {
  const open = useOpenStarter();
  const choose = onChoose ?? open;
  return (
    <ul className={cn('grid gap-3 sm:grid-cols-2 xl:grid-cols-3', className)} aria-label="Starter templates">
      {STARTER_CATALOGUE.map((starter) => (
        <StarterCard key={starter.id} starter={starter} onOpen={(chosen) => void parsedStarter(chosen).then(choose, starterNotLoaded)} />
      ))}
    </ul>
  );
}

export function StarterGalleryDialog({
  open,
  onOpenChange,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose?: (starter: TStarterFormat) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Start from a template</DialogTitle>
          <DialogDescription>Each template opens in the builder with its fields ready. Change anything, then save it as your own format.</DialogDescription>
        </DialogHeader>
        <StarterGallery className="xl:grid-cols-2" onChoose={onChoose} />
      </DialogContent>
    </Dialog>
  );
}

/** "Start from a template": a button that opens the gallery. */
export function StartFromTemplateButton({ variant = 'outline', label = 'Start from a template' }: { variant?: 'outline' | 'default'; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        <LayoutTemplateIcon /> {label}
      </Button>
      <StarterGalleryDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
