import type { TErrorCode } from '../../contract/errors.ts';

/**
 * The one way server code signals an expected failure. It names what went wrong by code; the
 * error handler's table (error-handler.ts) decides the HTTP status, so services never speak HTTP.
 */
export class AppError extends Error {
  constructor(
    public readonly code: TErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found.`);
export const unauthorized = () => new AppError('unauthorized', 'Unauthorized');
export const forbidden = (message = 'You do not have permission to do that.') => new AppError('forbidden', message);
