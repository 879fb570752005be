/** Apple keyboards say Cmd where the others say Ctrl; the builder's keys accept either (use-builder-shortcuts.ts). */
function isMac(): boolean {
  if (typeof navigator === 'undefined') return false;
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform ?? '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** A key with the platform's command modifier, as people read it: "Ctrl+S", or "Cmd+S" on a Mac. */
export function withMod(key: string, { shift = false } = {}): string {
  return [isMac() ? 'Cmd' : 'Ctrl', ...(shift ? ['Shift'] : []), key].join('+');
}

/** A button's label with its key, for its tooltip: "Save (Ctrl+S)". */
export function withShortcut(label: string, keys: string): string {
  return `${label} (${keys})`;
}

/** Whether a key press was meant as text: typed into a field, not a command. */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest('input, textarea, select, [contenteditable=""], [contenteditable=true]');
}
