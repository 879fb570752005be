import { BracesIcon, CodeXmlIcon, CopyIcon, PlusIcon, SquareCodeIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { exampleData } from '../../../contract/example-data';
import type { TElementType } from '../../../contract/format-content';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { copyText, FormatApiDialog, type TApiFormat } from '../formats/format-api-dialog';
import { ELEMENT_ICONS } from './canvas';
import { ELEMENT_LABELS } from './model';

/**
 * A menu choice that moves the focus (into a new element, back into a text) runs once the menu
 * has closed and let go of the focus; run while it is open, the menu would take the focus back.
 */
function useChoiceAfterClose() {
  const chosen = useRef<(() => void) | null>(null);
  return {
    choose: (action: () => void) => () => {
      chosen.current = action;
    },
    onCloseAutoFocus: (e: Event) => {
      const action = chosen.current;
      if (!action) return;
      e.preventDefault();
      chosen.current = null;
      action();
    },
  };
}

/** Insert: a placeholder at the cursor of the text last focused, or a new one made there. */
export function InsertPlaceholderMenu({
  placeholders,
  onInsert,
  onNew,
}: {
  placeholders: readonly TPlaceholder[];
  onInsert: (name: string) => void;
  onNew: () => void;
}) {
  const after = useChoiceAfterClose();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Keeps the caret where it was in the text, so the tag goes there. */}
        <Button variant="outline" size="sm" onMouseDown={(e) => e.preventDefault()}>
          <BracesIcon /> <span className="hidden md:inline">Insert</span>
          <span className="sr-only md:hidden">Insert placeholder</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" onCloseAutoFocus={after.onCloseAutoFocus}>
        <DropdownMenuLabel>Insert placeholder</DropdownMenuLabel>
        {placeholders.map((p) => (
          <DropdownMenuItem key={p.name} onSelect={after.choose(() => onInsert(p.name))}>
            <span className="font-mono text-[12.5px]">{`{{${p.name}}}`}</span>
            <span className="ml-auto pl-3 text-xs text-muted-foreground">{placeholderLabel(p)}</span>
          </DropdownMenuItem>
        ))}
        {placeholders.length > 0 && <DropdownMenuSeparator />}
        <DropdownMenuItem onSelect={after.choose(onNew)}>
          <PlusIcon aria-hidden /> New placeholder…
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const ADDABLE: readonly TElementType[] = ['heading', 'paragraph', 'list', 'table', 'image', 'section'];

/** Add element: a menu in the top bar, opened by "/" from anywhere outside a text field. */
export function AddElementMenu({ open, onOpenChange, onAdd }: { open: boolean; onOpenChange: (open: boolean) => void; onAdd: (type: TElementType) => void }) {
  const after = useChoiceAfterClose();
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-keyshortcuts="/" title="Add element (/)">
          <PlusIcon /> <span className="hidden md:inline">Add</span>
          <span className="sr-only md:hidden">Add element</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" onCloseAutoFocus={after.onCloseAutoFocus}>
        <DropdownMenuLabel>Add element</DropdownMenuLabel>
        {ADDABLE.map((type) => {
          const Icon = ELEMENT_ICONS[type];
          return (
            <DropdownMenuItem key={type} onSelect={after.choose(() => onAdd(type))}>
              <Icon aria-hidden /> {ELEMENT_LABELS[type]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** API: a saved format's id and example data, copied at once or shown with the call that uses them. */
export function FormatApiMenu({ format }: { format: TApiFormat }) {
  const [details, setDetails] = useState(false);
  // The dialog opens once the menu has let go of the focus, so the dialog keeps it.
  const after = useChoiceAfterClose();
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="sm" aria-label="API" title="Format id and example data for the API">
            <CodeXmlIcon /> <span className="hidden md:inline">API</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" onCloseAutoFocus={after.onCloseAutoFocus}>
          <DropdownMenuLabel>For the API</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => void copyText(format.id, 'Format id')}>
            <CopyIcon aria-hidden /> Copy format id
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void copyText(JSON.stringify(exampleData(format.placeholders), null, 2), 'Example data')}>
            <CopyIcon aria-hidden /> Copy example data
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={after.choose(() => setDetails(true))}>
            <SquareCodeIcon aria-hidden /> API details…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <FormatApiDialog format={details ? format : null} onOpenChange={setDetails} />
    </>
  );
}
