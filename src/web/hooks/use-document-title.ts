import { useEffect } from 'react';

/** Sets the tab title to "{title} · Formwork" while the screen is shown. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} · Formwork`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
