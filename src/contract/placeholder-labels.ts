/*
 * How a placeholder is named to a person. Apart from the placeholder schemas so that a page that
 * only lists placeholders (the starter gallery on the dashboard) loads no schema code.
 */

/** The name with underscores as spaces, first letter capitalised (docs/decisions.md). */
export function defaultPlaceholderLabel(name: string): string {
  const spaced = name.replace(/_+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The label shown for a placeholder: its own, or the one derived from its name. */
export function placeholderLabel(p: { name: string; label?: string | undefined }): string {
  return p.label && p.label.length > 0 ? p.label : defaultPlaceholderLabel(p.name);
}
