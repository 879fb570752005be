// Numbers and dates, shared by .xlsx and .xls

/** A number as plain decimal text: 15 significant digits (what Excel shows), no exponent. */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(15));
  const text = String(rounded);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, int = '', frac = '', expText = '0'] = m;
  const digits = int + frac;
  const point = int.length + Number(expText);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return sign + out;
}

export type TDateKind = 'date' | 'time';

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]);
const BUILTIN_TIME_FORMATS = new Set([18, 19, 20, 21, 32, 33, 34, 35, 45, 46, 47]);

export function builtinDateKind(id: number): TDateKind | null {
  if (BUILTIN_DATE_FORMATS.has(id)) return 'date';
  if (BUILTIN_TIME_FORMATS.has(id)) return 'time';
  return null;
}

/** Whether a number format code shows a date (or only a time); null for every other format. */
export function dateKindOfFormat(code: string): TDateKind | null {
  // Only the first section (positive numbers) decides; quoted text, escapes, padding and
  // [colour]/[condition] blocks are not tokens. [h], [m] and [s] are elapsed times.
  const section = code.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)[0] ?? '';
  let s = section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  const elapsed = /\[(h+|m+|s+)\]/i.test(s);
  s = s
    .replace(/\[[^\]]*\]/g, '')
    .replace(/general/gi, '')
    .replace(/am\/pm|a\/p/gi, '');
  if (elapsed) return 'time';
  const hasTime = /[hs]/i.test(s);
  const hasDate = /[dy]/i.test(s) || (/m/i.test(s) && !hasTime);
  if (hasDate) return 'date';
  if (hasTime) return 'time';
  return null;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function timeText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${pad2(h)}:${pad2(m)}${s === 0 ? '' : `:${pad2(s)}`}`;
}

/**
 * An Excel serial number as YYYY-MM-DD, YYYY-MM-DDTHH:mm (when it has a time of day; seconds
 * only when not zero) or, for a time-only format, HH:mm. Out-of-range serials stay numbers.
 */
export function serialToText(serial: number, kind: TDateKind, date1904: boolean): string {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return plainNumber(serial);
  const totalSeconds = Math.round(serial * 86_400);
  if (kind === 'time') return timeText(totalSeconds);
  let days = Math.floor(totalSeconds / 86_400);
  const seconds = totalSeconds - days * 86_400;
  // The 1900 system counts a 29 February 1900 that never was; serials before it are one day off.
  let epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  if (!date1904 && days < 61) epoch = Date.UTC(1899, 11, 31);
  if (!date1904 && days === 60) days = 59;
  const d = new Date(epoch + days * 86_400_000);
  const date = `${String(d.getUTCFullYear()).padStart(4, '0')}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  return seconds === 0 ? date : `${date}T${timeText(seconds)}`;
}

/** An ISO date or date-time (from an .xlsx `t="d"` cell) in the same shapes as serialToText. */
export function isoDateText(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text.trim());
  if (!m) return text;
  const [, date = '', h = '00', min = '00', s = '00'] = m;
  const seconds = Number(h) * 3600 + Number(min) * 60 + Number(s);
  return seconds === 0 ? date : `${date}T${timeText(seconds)}`;
}
