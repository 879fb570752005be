import { fromNodeHeaders } from 'better-auth/node';
import type { IncomingHttpHeaders } from 'node:http';
import { renderSVG } from 'uqr';
import type { TRecoveryCodes, TTwoFactorSetup } from '../../../contract/two-factor.ts';
import { AppError } from '../../http/app-error.ts';
import type { TTwoFactorChecks, TTwoFactorDeps } from './two-factor-checks.ts';

/** The QR code an authenticator app scans, as an SVG data URL an <img> can show. */
function qrCodeOf(totpURI: string): string {
  const svg = renderSVG(totpURI, { border: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** Turning two-factor on and off, and replacing the recovery codes: each proven with the password or a code. */
export function createTwoFactorSetup(deps: TTwoFactorDeps, checks: TTwoFactorChecks) {
  const { repository, passwordUser, withPassword, withCode } = checks;
  return {
    /**
     * Starts setting up an authenticator app: checks the password, and has the library make a new
     * secret, kept unconfirmed until a code from the app proves it was scanned.
     */
    async enable(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<TTwoFactorSetup> {
      const row = await passwordUser(userId);
      if (row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is already on. Turn it off first to move it to another app.');
      const result = await withPassword(row, ip, () =>
        deps.auth().api.enableTwoFactor({ body: { password, method: 'totp' }, headers: fromNodeHeaders(headers) }),
      );
      if (result.method !== 'totp') throw new Error('the auth library answered without a TOTP address');
      const secret = new URL(result.totpURI).searchParams.get('secret') ?? '';
      return { totpURI: result.totpURI, secret, qrCode: qrCodeOf(result.totpURI) };
    },

    /**
     * Confirms the app with its first code: two-factor is on from here, the library starts a new
     * session for this browser (its cookies are returned), and the recovery codes made with the
     * secret are handed out, this once.
     */
    async confirm(userId: string, code: string, ip: string, headers: IncomingHttpHeaders): Promise<TRecoveryCodes & { setCookies: string[] }> {
      const row = await passwordUser(userId);
      if (row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is already on.');
      const stored = await repository.stored(userId);
      if (!stored) throw new AppError('conflict', 'Start again: enter your password to get a new QR code.');
      const result = await withCode(row.email, ip, false, () =>
        deps.auth().api.verifyTOTP({ body: { code }, headers: fromNodeHeaders(headers), returnHeaders: true }),
      );
      deps.forgetSessions(userId);
      const codes = await deps.auth().api.viewBackupCodes({ body: { userId } });
      return { recoveryCodes: codes.backupCodes, setCookies: result.headers.getSetCookie() };
    },

    /** Turns two-factor off with the password; the library starts a new session for this browser. */
    async disable(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<string[]> {
      const row = await passwordUser(userId);
      if (!row.twoFactorEnabled && !(await repository.stored(userId))) {
        throw new AppError('conflict', 'Two-factor sign-in is not on.');
      }
      const result = await withPassword(row, ip, () =>
        deps.auth().api.disableTwoFactor({ body: { password }, headers: fromNodeHeaders(headers), returnHeaders: true }),
      );
      deps.forgetSessions(userId);
      return result.headers.getSetCookie();
    },

    /** Ten new recovery codes with the password; the old ones stop working. */
    async regenerateRecoveryCodes(userId: string, password: string, ip: string, headers: IncomingHttpHeaders): Promise<TRecoveryCodes> {
      const row = await passwordUser(userId);
      if (!row.twoFactorEnabled) throw new AppError('conflict', 'Two-factor sign-in is not on, so there are no recovery codes to replace.');
      const result = await withPassword(row, ip, () => deps.auth().api.generateBackupCodes({ body: { password }, headers: fromNodeHeaders(headers) }));
      return { recoveryCodes: result.backupCodes };
    },
  };
}
