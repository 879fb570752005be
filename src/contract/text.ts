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

// Made on first use: the first Intl object a page makes loads the locale's data, which at module
// load would lengthen the web app's start.
let pluralRules: Intl.PluralRules | undefined;

/**
 * A count with its noun in the form the count takes: "1 document", "2 documents", "1,200 rows".
 * The app's words are English, so the rules are en-US whatever the format's locale. `many` is for
 * nouns whose plural is not the singular plus "s" ("1 entry", "2 entries").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${(pluralRules ??= new Intl.PluralRules('en-US')).select(n) === 'one' ? one : many}`;
}
