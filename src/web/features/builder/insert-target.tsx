import { createContext, useCallback, useContext, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { toggleInlineMarker, type TInlineMarker } from './model';

type TextField = HTMLInputElement | HTMLTextAreaElement;

interface Target {
  el: TextField;
  label: string;
  set: (value: string) => void;
}

interface InsertTargetApi {
  /** Label of the text that `{{name}}` would go into, or null. */
  targetLabel: string | null;
  register: (target: Target) => void;
  clear: () => void;
  /** Inserts at the caret (replacing a selection) of the last focused text; false when there is none. */
  insert: (text: string) => boolean;
}

const Ctx = createContext<InsertTargetApi | null>(null);

export function InsertTargetProvider({ children }: { children: ReactNode }) {
  const ref = useRef<Target | null>(null);
  const [targetLabel, setTargetLabel] = useState<string | null>(null);

  const register = useCallback((target: Target) => {
    ref.current = target;
    setTargetLabel(target.label);
  }, []);

  const clear = useCallback(() => {
    ref.current = null;
    setTargetLabel(null);
  }, []);

  const insert = useCallback((text: string) => {
    const t = ref.current;
    if (!t || !t.el.isConnected) return false;
    const value = t.el.value;
    const start = t.el.selectionStart ?? value.length;
    const end = t.el.selectionEnd ?? start;
    t.set(value.slice(0, start) + text + value.slice(end));
    const caret = start + text.length;
    requestAnimationFrame(() => {
      if (!t.el.isConnected) return;
      t.el.focus();
      t.el.setSelectionRange(caret, caret);
    });
    return true;
  }, []);

  const api = useMemo(() => ({ targetLabel, register, clear, insert }), [targetLabel, register, clear, insert]);
  return <Ctx.Provider value={api}>{children}</Ctx.Provider>;
}

export function useInsertTarget(): InsertTargetApi {
  const api = useContext(Ctx);
  if (!api) throw new Error('useInsertTarget needs an InsertTargetProvider');
  return api;
}

/**
 * Bold, italic or underline for the words selected in `field` (see toggleInlineMarker); the same words stay
 * selected. False when nothing is selected, so the caller can style the whole element instead.
 */
export function applyInlineMarker(field: TextField, marker: TInlineMarker, set: (value: string) => void): boolean {
  const next = toggleInlineMarker(field.value, field.selectionStart ?? 0, field.selectionEnd ?? 0, marker);
  if (!next) return false;
  set(next.value);
  requestAnimationFrame(() => {
    if (!field.isConnected) return;
    field.focus();
    field.setSelectionRange(next.start, next.end);
  });
  return true;
}

const MARKER_KEYS: Record<string, TInlineMarker> = { b: '**', i: '*', u: '__' };

/**
 * Props for a text field that placeholders can be inserted into, and in which Ctrl+B, Ctrl+I and
 * Ctrl+U (Cmd on a Mac) make the selected words bold, italic or underlined, and Ctrl+K asks for a
 * link (`onLink`).
 */
export function useInsertableField(label: string, set: (value: string) => void, options: { inlineStyles?: boolean; onLink?: () => void } = {}) {
  const { register } = useInsertTarget();
  const inlineStyles = options.inlineStyles ?? true;
  return {
    onFocus: (e: FocusEvent<TextField>) => register({ el: e.currentTarget, label, set }),
    onKeyDown: (e: KeyboardEvent<TextField>) => {
      if (!inlineStyles || !(e.metaKey || e.ctrlKey) || e.altKey || e.shiftKey) return;
      const key = e.key.toLowerCase();
      if (key === 'k' && options.onLink) {
        e.preventDefault();
        options.onLink();
        return;
      }
      const marker = MARKER_KEYS[key];
      if (!marker) return;
      e.preventDefault();
      applyInlineMarker(e.currentTarget, marker, set);
    },
  };
}
