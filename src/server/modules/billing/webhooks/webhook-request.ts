import { AppError } from '../../../http/app-error.ts';

export type THeaders = Record<string, string | string[] | undefined>;

/** A webhook as it arrived: the exact bytes its signature covers, and its headers. */
export type TWebhookRequest = { rawBody: Buffer; headers: THeaders };

export function header(request: TWebhookRequest, key: string): string | undefined {
  const value = request.headers[key];
  return Array.isArray(value) ? value[0] : value;
}

export const badSignature = () => new AppError('bad_request', 'The webhook signature does not match.');

export function jsonBody(request: TWebhookRequest): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'The webhook body is not JSON.');
  }
}
