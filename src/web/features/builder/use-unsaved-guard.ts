import { useCallback, useEffect, useRef, useState } from 'react';
import { currentUrl, navigateWithoutGuard, setNavigationGuard } from '../../lib/navigation-guard';

/**
 * Leaving with unsaved changes asks first:
 * - reload, closing the tab and full navigations (sign out) get the browser's own prompt;
 * - in-app navigation and the browser's Back and Forward are held (lib/navigation-guard) and
 *   `pending` is set, so the page can show its own dialog; `proceed` then performs the held move.
 */
export function useUnsavedGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  const [pending, setPending] = useState<{ go: () => void } | null>(null);

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  // Where the page is (its address changes when a new format is first saved), kept after every
  // render: when Back is pressed the browser has moved on but the page has not re-rendered yet.
  const hereRef = useRef({ url: '', state: null as unknown });
  useEffect(() => {
    hereRef.current = { url: currentUrl(), state: history.state };
  });

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    const removeGuard = setNavigationGuard({
      shouldBlock: () => dirtyRef.current,
      here: () => hereRef.current,
      onBlocked: (go) => setPending({ go }),
    });
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      removeGuard();
    };
  }, []);

  /** Runs `fn` (which navigates) without asking. */
  const bypass = useCallback((fn: () => void) => navigateWithoutGuard(fn), []);

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
