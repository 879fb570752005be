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

/** Makes names unique within one archive, case-insensitively (Windows and macOS file systems). */
export function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = `${name}.pdf`;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name} (${n}).pdf`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}
