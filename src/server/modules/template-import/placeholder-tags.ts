import {
  defaultPlaceholderLabel,
  guessNumberDisplay,
  MAX_PLACEHOLDER_NAME_LENGTH,
  MAX_PLACEHOLDERS,
  normalizePlaceholderName,
  type TPlaceholder,
  type TPlaceholderType,
} from '../../../contract/placeholders.ts';

/*
 * Placeholder tags in imported text. Authors write them as `{{name}}`, `[[name]]` or `<<name>>`
 * (and Word shows mail-merge fields as `«name»`). Each becomes `{{normalised_name}}` in the
 * element text and a placeholder of the draft.
 */

// One alternative per syntax; the inner text is checked further below.
const TAG_RE = /\{\{([^{}\n]{1,100})\}\}|\[\[([^[\]\n]{1,100})\]\]|<<([^<>\n]{1,100})>>|«([^«»\s]{1,100})»/g;

/** What `[[...]]`, `<<...>>` and `«...»` must hold to count as a tag rather than prose. */
const NAME_LIKE_RE = /^[\p{L}\p{N}_][\p{L}\p{N}_ .-]*$/u;
/** What the contract accepts as a name once normalised (no braces, asterisks or spaces). */
const VALID_NAME_RE = /^[^\s{}*]+$/;

/** The page tokens of headers and footers: left in the text, never placeholders. */
const RESERVED = new Set(['page', 'pages']);

export interface TTagRewrite {
  text: string;
  /** Normalised names in order of first use (reserved tokens excluded). */
  names: string[];
  /** Tags that were left as typed because the name is unusable, e.g. too long. */
  rejected: string[];
}

/**
 * Rewrites every tag in `text` to `{{name}}`. Emphasis markers that ended up inside a tag (a
 * Word run boundary in the middle of it) are dropped from the name.
 */
export function rewriteTags(text: string): TTagRewrite {
  const names: string[] = [];
  const rejected: string[] = [];
  if (!/\{\{|\[\[|<<|«/.test(text)) return { text, names, rejected };
  const out = text.replace(TAG_RE, (whole: string, curly?: string, square?: string, angle?: string, guillemet?: string) => {
    const raw = curly ?? square ?? angle ?? guillemet ?? '';
    const inner = raw.replace(/\*/g, '').trim();
    // Outside curly braces a tag hugs its name ("<<Start Date>>"), which "a << b >> c" does not.
    if (curly === undefined && (!NAME_LIKE_RE.test(inner) || /^\s|\s$/.test(raw))) return whole;
    const name = normalizePlaceholderName(inner);
    if (name.length === 0 || !VALID_NAME_RE.test(name)) {
      rejected.push(whole);
      return whole;
    }
    if (name.length > MAX_PLACEHOLDER_NAME_LENGTH) {
      rejected.push(whole);
      return whole;
    }
    if (!RESERVED.has(name) && !names.includes(name)) names.push(name);
    return `{{${name}}}`;
  });
  return { text: out, names, rejected };
}

const EMAIL_WORDS = ['email', 'mail'];
const DATE_WORDS = ['date', 'dob', 'birthday', 'birthdate', 'deadline'];
const TEL_WORDS = ['phone', 'mobile', 'tel', 'telephone', 'cell'];
const NUMBER_WORDS = ['amount', 'price', 'total', 'salary', 'cost', 'fee', 'fees', 'qty', 'quantity'];

/**
 * The input type a placeholder probably wants, from the words of its name:
 * `client_email` -> email, `start_date` / `dob` -> date, `contact_number` -> tel,
 * `total_amount` -> number, anything else -> text.
 */
export function guessPlaceholderType(name: string): TPlaceholderType {
  const words = name
    .toLowerCase()
    .split(/[_.\-]+/)
    .filter(Boolean);
  const has = (list: readonly string[]) => words.some((w) => list.includes(w));
  const joined = words.join('_');
  if (has(EMAIL_WORDS) || joined.includes('e_mail') || joined.includes('email')) return 'email';
  if (has(DATE_WORDS)) return 'date';
  if (has(TEL_WORDS) || joined.includes('contact_number') || joined.includes('phone')) return 'tel';
  if (has(NUMBER_WORDS)) return 'number';
  return 'text';
}

/** Placeholders for the names, in order, with guessed types and the default labels. */
export function placeholdersFor(names: readonly string[]): { placeholders: TPlaceholder[]; dropped: number } {
  const unique = [...new Set(names)];
  const kept = unique.slice(0, MAX_PLACEHOLDERS);
  return {
    placeholders: kept.map((name) => {
      const type = guessPlaceholderType(name);
      // A number prints the way its name suggests (`total` as money), as in the builder.
      const display = type === 'number' ? guessNumberDisplay(name) : 'plain';
      return { name, label: defaultPlaceholderLabel(name), type, required: false, options: [], ...(display === 'plain' ? {} : { display }) };
    }),
    dropped: unique.length - kept.length,
  };
}
