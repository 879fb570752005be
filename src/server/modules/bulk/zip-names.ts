import { fillNamePattern } from '../../../contract/documents.ts';
import { textValues } from '../../../contract/filled-values.ts';
import { safeFileBaseName } from '../../http/send-file.ts';

/** A file name from the pattern: placeholders filled, characters file systems reject replaced. */
export function zipEntryName(pattern: string, values: Readonly<Record<string, unknown>>): string {
  const text = textValues(values);
  const filled = fillNamePattern(pattern, (name) => text[name]);
  // No leading dots (hidden files) and no trailing dots or spaces (Windows drops them).
  return safeFileBaseName(filled).replace(/^[\s.]+|[\s.]+$/g, '') || 'document';
}

/**
 * Makes names unique within one archive, case-insensitively (Windows and macOS file systems): the
 * first of "name.pdf", "name (2).pdf", "name (3).pdf"… not yet taken. Each name remembers the
 * number it reached, so a batch whose 50,000 documents share one name costs 50,000 steps, not the
 * 1.25 billion that counting up from 2 each time took (most of the ZIP's time at that size).
 */
export function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  // Every number below a name's entry is taken (names are never freed), so the search resumes there.
  const nextNumber = new Map<string, number>();
  return (name) => {
    let candidate = `${name}.pdf`;
    if (used.has(candidate.toLowerCase())) {
      const key = name.toLowerCase();
      let n = nextNumber.get(key) ?? 2;
      while (used.has(`${key} (${n}).pdf`)) n++;
      candidate = `${name} (${n}).pdf`;
      nextNumber.set(key, n + 1);
    }
    used.add(candidate.toLowerCase());
    return candidate;
  };
}
