import { Fragment, useEffect, useState } from 'react';
import { isTyping, withMod } from '../lib/shortcut-keys';
import { TOAST_HOTKEY } from './ui/toast';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from './ui/dialog';

interface TShortcutGroup {
  title: string;
  shortcuts: { keys: string[]; action: string }[];
}

/** The keys the app really answers to: the builder's are in use-builder-shortcuts.ts and canvas.tsx. */
function shortcutGroups(): TShortcutGroup[] {
  return [
    {
      title: 'Anywhere',
      shortcuts: [
        { keys: ['?'], action: 'Show these keyboard shortcuts' },
        { keys: TOAST_HOTKEY, action: 'Jump to notifications' },
        { keys: ['Esc'], action: 'Close a dialog or menu' },
      ],
    },
    {
      title: 'Format builder',
      shortcuts: [
        { keys: [withMod('S')], action: 'Save the format' },
        { keys: [withMod('Z')], action: 'Undo' },
        { keys: [withMod('Z', { shift: true }), withMod('Y')], action: 'Redo' },
        { keys: ['/'], action: 'Open the Add element menu (outside a text field)' },
        { keys: ['Enter'], action: 'Edit the focused element' },
        { keys: ['Esc'], action: 'Stop editing the element' },
        { keys: [withMod('B'), withMod('I'), withMod('U')], action: 'Bold, italic or underline the selected words' },
        { keys: [withMod('K')], action: 'Make the selected words a link (in a paragraph)' },
      ],
    },
  ];
}

/** "?" anywhere but in a field opens the list of keyboard shortcuts. */
export function KeyboardShortcutsDialog() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>Press ? anywhere outside a text field to see this list.</DialogDescription>
        </DialogHeader>
        {shortcutGroups().map((group, g) => (
          <section key={group.title} aria-labelledby={`shortcuts-group-${g}`}>
            <h3 id={`shortcuts-group-${g}`} className="mb-1.5 text-sm font-semibold">
              {group.title}
            </h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              {group.shortcuts.map((s) => (
                <Fragment key={s.action}>
                  <dt className="flex flex-wrap gap-1 whitespace-nowrap">
                    {s.keys.map((k, i) => (
                      <Fragment key={k}>
                        {i > 0 && <span className="text-muted-foreground">or</span>}
                        <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs text-foreground">{k}</kbd>
                      </Fragment>
                    ))}
                  </dt>
                  <dd className="text-muted-foreground">{s.action}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
        ))}
      </DialogContent>
    </Dialog>
  );
}
