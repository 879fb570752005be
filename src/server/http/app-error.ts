import type { TErrorCode } from '../../contract/errors.ts';

/** The one way server code signals an expected failure; the error handler turns it into the JSON shape. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: TErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found.`);
export const unauthorized = () => new AppError(401, 'unauthorized', 'Unauthorized');
export const forbidden = (message = 'You do not have permission to do that.') =>
  new AppError(403, 'forbidden', message);
