import { useEffect, useRef } from 'react';
import { isTyping } from '../../lib/shortcut-keys';

export interface BuilderShortcuts {
  save: () => void;
  undo: () => void;
  redo: () => void;
  openAddMenu: () => void;
}

/**
 * The builder's keys, on the whole window: Ctrl/Cmd+S saves, Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z
 * or Ctrl/Cmd+Y redoes, and "/" outside a text field opens the Add element menu. The handlers are
 * read at key time, so the listener is added once and always calls this render's closures.
 */
export function useBuilderShortcuts(handlers: BuilderShortcuts) {
  const shortcuts = useRef(handlers);
  useEffect(() => {
    shortcuts.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      // Dialogs and the placeholder form keep their own keys (their fields are not part of the format).
      if (target?.closest('[role=dialog], [data-own-undo]')) return;
      const mod = e.metaKey || e.ctrlKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        shortcuts.current.save();
      } else if (mod && !e.altKey && ((key === 'z' && e.shiftKey) || key === 'y')) {
        e.preventDefault();
        shortcuts.current.redo();
      } else if (mod && !e.altKey && key === 'z') {
        e.preventDefault();
        shortcuts.current.undo();
      } else if (e.key === '/' && !mod && !isTyping(target)) {
        e.preventDefault();
        shortcuts.current.openAddMenu();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
