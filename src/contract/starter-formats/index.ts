import { ZFormatContent } from '../format-content.ts';
import { ZPlaceholderList } from '../placeholders.ts';
import { STARTER_CATALOGUE } from './catalogue.ts';
import type { TStarterFormat, TStarterFormatInput } from './shared.ts';

export type { TStarterFormat } from './shared.ts';

/** Parsed with the schemas every saved format passes, so a starter is exactly what a save would store. */
export function parseStarter(starter: TStarterFormatInput): TStarterFormat {
  return { ...starter, content: ZFormatContent.parse(starter.content), placeholders: ZPlaceholderList.parse(starter.placeholders) };
}

export const STARTER_FORMATS: readonly TStarterFormat[] = STARTER_CATALOGUE.map(parseStarter);
