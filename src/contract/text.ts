/*
 * Text no field may hold. PostgreSQL refuses NUL in text and JSON, and a UTF-16 surrogate without
 * its pair cannot be encoded as UTF-8 at all (headers, files, the database): both are refused at
 * the edge with a message that names the field, instead of failing deep inside.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Why `text` cannot be stored or sent, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'Remove the NUL character (\\u0000): it cannot be stored.';
  if (LONE_SURROGATE.test(text)) return 'This text holds a broken character (an unpaired UTF-16 surrogate). Type or paste it again.';
  return undefined;
}

/** `text` with every unpaired surrogate replaced by U+FFFD, so it can always be encoded. */
export const wellFormed = (text: string) => text.replace(LONE_SURROGATES, '\uFFFD');

/**
 * `text` as it can be stored, for text read from a file rather than typed into a field (a
 * spreadsheet's cells, an upload's name): refusing it would send a person hunting for a character
 * they cannot see, so NUL is dropped and an unpaired surrogate becomes U+FFFD; all else is kept.
 */
export const storableText = (text: string) => wellFormed(text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

// Made on first use: the first Intl object a page makes loads the locale's data (tens of
// milliseconds in a browser), which at module load would lengthen the web app's start.
let pluralRules: Intl.PluralRules | undefined;
let wholeNumbers: Intl.NumberFormat | undefined;

/**
 * A number as en-US writes it ("1,234,567", "1,234.5"). A whole number is grouped here, exactly as
 * Intl groups it, so the common case loads no locale data; −0 is written "0".
 */
export function formatEnglishNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return (wholeNumbers ??= new Intl.NumberFormat('en-US')).format(n);
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
}

/**
 * A count with its noun in the form the count takes: "1 document", "2 documents", "1,200 rows".
 * The app's words are English, so the rules are en-US whatever the format's locale. `many` is for
 * nouns whose plural is not the singular plus "s" ("1 entry", "2 entries").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatEnglishNumber(n)} ${(pluralRules ??= new Intl.PluralRules('en-US')).select(n) === 'one' ? one : many}`;
}
