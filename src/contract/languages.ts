/*
 * The languages a format or one of its elements can be set to, their names, and which writing
 * systems each is written in: the accessibility check (accessibility-check.ts) tells by the letters
 * of an element's text that it is in another language than its format's.
 */

/** Languages offered for a format and for an element; a format's own comes first when not listed. */
export const LANGUAGES = [
  'en-US',
  'en-GB',
  'en-IN',
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'pt-BR',
  'pt-PT',
  'nl-NL',
  'sv-SE',
  'da-DK',
  'nb-NO',
  'fi-FI',
  'pl-PL',
  'cs-CZ',
  'tr-TR',
  'hi-IN',
  'ar-SA',
  'ja-JP',
  'zh-CN',
  'ko-KR',
] as const;

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** "German (Germany)", or the tag itself where there is no name for it. */
export function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Whether two tags name the same language and region, however they are cased. */
export const sameLanguage = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Writing systems and the languages (primary subtags) written in each. A language missing here
 * is not judged: its text may be in any script.
 */
const SCRIPTS: readonly { name: string; letter: RegExp; languages: readonly string[] }[] = [
  {
    name: 'Latin',
    letter: /\p{Script=Latin}/u,
    languages: 'en de fr es it pt nl sv da nb nn no fi pl cs sk sl hr bs tr ro hu id ms vi et lv lt ga is ca eu gl sq af sw tl fil az uz mt cy lb'.split(' '),
  },
  { name: 'Arabic', letter: /\p{Script=Arabic}/u, languages: ['ar', 'fa', 'ur', 'ps', 'ku', 'sd', 'ug'] },
  { name: 'Hebrew', letter: /\p{Script=Hebrew}/u, languages: ['he', 'yi'] },
  { name: 'Devanagari', letter: /\p{Script=Devanagari}/u, languages: ['hi', 'mr', 'ne', 'sa', 'kok', 'mai'] },
  { name: 'Bengali', letter: /\p{Script=Bengali}/u, languages: ['bn', 'as'] },
  { name: 'Gurmukhi', letter: /\p{Script=Gurmukhi}/u, languages: ['pa'] },
  { name: 'Gujarati', letter: /\p{Script=Gujarati}/u, languages: ['gu'] },
  { name: 'Tamil', letter: /\p{Script=Tamil}/u, languages: ['ta'] },
  { name: 'Telugu', letter: /\p{Script=Telugu}/u, languages: ['te'] },
  { name: 'Kannada', letter: /\p{Script=Kannada}/u, languages: ['kn'] },
  { name: 'Malayalam', letter: /\p{Script=Malayalam}/u, languages: ['ml'] },
  { name: 'Thai', letter: /\p{Script=Thai}/u, languages: ['th'] },
  { name: 'Cyrillic', letter: /\p{Script=Cyrillic}/u, languages: ['ru', 'uk', 'bg', 'sr', 'mk', 'be', 'kk', 'ky', 'mn', 'tg'] },
  { name: 'Greek', letter: /\p{Script=Greek}/u, languages: ['el'] },
  { name: 'Hangul', letter: /\p{Script=Hangul}/u, languages: ['ko'] },
  // Japanese and Korean text may hold Chinese characters too.
  { name: 'Chinese', letter: /\p{Script=Han}/u, languages: ['zh', 'ja', 'ko'] },
  { name: 'Japanese', letter: /[\p{Script=Hiragana}\p{Script=Katakana}]/u, languages: ['ja'] },
];

const primarySubtag = (tag: string) => tag.split('-')[0]!.toLowerCase();

/**
 * Each character's script, remembered: the builder checks the whole format on every keystroke, and
 * a long table's text would otherwise be tried against every script's pattern, character by character.
 */
const scriptOfCharacter = new Map<string, (typeof SCRIPTS)[number] | null>();
const LETTER = /\p{L}/u;
function scriptOf(char: string): (typeof SCRIPTS)[number] | null {
  let script = scriptOfCharacter.get(char);
  if (script === undefined) {
    script = LETTER.test(char) ? (SCRIPTS.find((s) => s.letter.test(char)) ?? null) : null;
    scriptOfCharacter.set(char, script);
  }
  return script;
}

/** Placeholders and link addresses are not words a reader hears, whatever the text around them is in. */
const NOT_READ = /\{\{[^}]*\}\}|\]\([^)]*\)/g;

/**
 * The writing system most of `texts`' letters are in, when `language` is not written in it: the
 * text is then in another language. Null when `language` is not one judged here, or when fewer
 * than half the letters (or fewer than two) are in a script foreign to it.
 */
export function foreignScript(texts: readonly string[], language: string): string | null {
  const own = primarySubtag(language);
  if (!SCRIPTS.some((script) => script.languages.includes(own))) return null;
  const counts = new Map<string, number>();
  let letters = 0;
  for (const text of texts) {
    for (const char of text.replace(NOT_READ, ' ')) {
      const script = scriptOf(char);
      if (!script) continue;
      letters++;
      if (!script.languages.includes(own)) counts.set(script.name, (counts.get(script.name) ?? 0) + 1);
    }
  }
  let foreign = 0;
  let top: string | null = null;
  for (const [name, n] of counts) {
    foreign += n;
    if (top === null || n > counts.get(top)!) top = name;
  }
  return foreign >= 2 && foreign * 2 > letters ? top : null;
}
