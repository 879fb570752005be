import { z } from 'zod';

/** Live keys make real, counted documents; test keys make watermarked ones that are not counted. */
export const API_KEY_MODES = ['live', 'test'] as const;
export const ZApiKeyMode = z.enum(API_KEY_MODES);
export type TApiKeyMode = z.infer<typeof ZApiKeyMode>;

/** What a key starts with, so a leaked key is recognisable (and a test key never mistaken for live). */
export const API_KEY_PREFIX: Record<TApiKeyMode, string> = { live: 'fw_live_', test: 'fw_test_' };

export const MAX_API_KEYS = 20;

/** A key as its owner sees it after creation: never the key itself, only its last 4 characters. */
export const ZApiKey = z.object({
  id: z.string(),
  name: z.string(),
  mode: ZApiKeyMode,
  last4: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The person who made the key, in whose name it acts; null once their account is deleted. */
  madeBy: z.string().nullable(),
  /**
   * Why the key answers 401 now although it is not revoked: its maker is suspended, or is no longer
   * one of the team's admins. It works again once they are restored.
   */
  stopped: z.enum(['maker_suspended', 'maker_not_admin']).nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZCreateApiKeyBody = z.object({
  name: z.string().trim().min(1, 'Name the key, e.g. after the app that will use it.').max(100, 'Use at most 100 characters.'),
  mode: ZApiKeyMode.default('live'),
});
export type TCreateApiKeyBody = z.input<typeof ZCreateApiKeyBody>;

/** The answer to creating a key: the only time the whole key is shown. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

/** `POST /api/user/generate-api-key`: a live key named "Default". */
export const ZGeneratedApiKey = z.object({ id: z.string(), key: z.string(), last4: z.string() });
