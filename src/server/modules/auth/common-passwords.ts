import { AppError } from '../../http/app-error.ts';
import { COMMON_PASSWORD_LIST } from './common-passwords.data.ts';

let list: Set<string> | undefined;
const common = () => (list ??= new Set(COMMON_PASSWORD_LIST.split('\n')));

/**
 * Why a new password is too easy to guess, or null when it is not. Guessers try the common
 * passwords first, and then the same words with digits or a symbol on the end, so both are refused.
 */
export function commonPasswordReason(password: string): string | null {
  const lowered = password.toLowerCase();
  if (common().has(lowered)) return 'This is one of the most common passwords. Choose one that is harder to guess.';
  const stem = lowered.replace(/[\d\W_]+$/u, '');
  if (stem !== lowered && stem.length >= 4 && common().has(stem)) {
    return 'This is a common password with characters added at the end. Choose one that is harder to guess.';
  }
  if (/^(.)\1*$/su.test(password)) return 'A password of one repeated character is easy to guess. Choose another.';
  if (/^(?:0?123456789|1234567890|qwertyuiop|asdfghjkl)/u.test(lowered)) {
    return 'A row of the keyboard or a run of digits is easy to guess. Choose another.';
  }
  return null;
}

/** A new password the server refuses, with the reason for the form's field. */
export function assertNotCommon(password: string, field: string): void {
  const reason = commonPasswordReason(password);
  if (reason) throw new AppError('validation_failed', reason, { [field]: reason });
}
