import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Leaving with unsaved changes asks first:
 * - reload, closing the tab and full navigations (sign out) get the browser's own prompt;
 * - in-app navigation (wouter calls history.pushState) is held and `pending` is set, so the page
 *   can show its own dialog; `proceed` then performs the held navigation.
 */
export function useUnsavedGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  const bypassRef = useRef(false);
  const originalRef = useRef<History['pushState'] | null>(null);
  const [pending, setPending] = useState<{ go: () => void } | null>(null);

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);

    const original = history.pushState;
    originalRef.current = original;
    const guarded: History['pushState'] = function (this: History, data, unused, url) {
      if (dirtyRef.current && !bypassRef.current && url != null) {
        setPending({ go: () => original.call(history, data, unused, url) });
        return;
      }
      original.call(history, data, unused, url);
    };
    history.pushState = guarded;

    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      if (history.pushState === guarded) history.pushState = original;
    };
  }, []);

  /** Runs `fn` (which navigates) without asking. */
  const bypass = useCallback((fn: () => void) => {
    bypassRef.current = true;
    try {
      fn();
    } finally {
      bypassRef.current = false;
    }
  }, []);

  const proceed = useCallback(() => {
    const p = pending;
    setPending(null);
    if (p) {
      dirtyRef.current = false;
      p.go();
    }
  }, [pending]);

  const cancel = useCallback(() => setPending(null), []);

  return { pending: pending !== null, proceed, cancel, bypass };
}
