import { MIN_PASSWORD_LENGTH } from '../../../contract/user';

/** What every form that sets a password says about it; the server adds a reason when it refuses one. */
export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters, and not a common password.`;
