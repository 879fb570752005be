import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether a box's content is wider than the box, kept up to date as either is resized. A box that
 * scrolls must take focus so a keyboard can scroll it; one that does not should not add a Tab stop.
 */
export function useScrollsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/** The attributes that make a box scrolling sideways reachable and named for a keyboard and a screen reader. */
export function scrollRegionProps(scrolls: boolean, label: string) {
  return scrolls ? ({ tabIndex: 0, role: 'region', 'aria-label': label } as const) : {};
}
