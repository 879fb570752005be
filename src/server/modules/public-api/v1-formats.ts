import { exampleData } from '../../../contract/example-data.ts';
import type { TFormat, TFormatInputParsed } from '../../../contract/formats.ts';
import { decodePageCursor, pageOf } from '../../http/page-cursor.ts';
import type { TApiAnswer } from './idempotency.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import { toV1FormatSummary, type TV1Urls } from './v1-shapes.ts';

/** Formats through the API: listed a page at a time, read with their content, created from JSON. */
export function createV1Formats(deps: TPublicApiDeps, urls: TV1Urls) {
  return {
    async list(ownerId: string, query: { limit: number; cursor?: string | undefined }) {
      const { limit, cursor } = query;
      const { formats, rows } = await deps.formats.page(ownerId, { limit: limit + 1, after: decodePageCursor(cursor) });
      return { data: formats.slice(0, limit).map(toV1FormatSummary), nextCursor: pageOf(rows, limit).nextCursor };
    },

    async get(ownerId: string, id: string) {
      const format = await deps.formats.get(ownerId, id);
      return toV1Format(format);
    },

    async create(ownerId: string, input: TFormatInputParsed): Promise<TApiAnswer> {
      const format = await deps.formats.create(ownerId, input);
      return { status: 201, body: toV1Format(format), location: urls.format(format.id) };
    },
  };
}

/** A format with its content and the example `data` that fills it. */
function toV1Format(format: TFormat) {
  return { ...toV1FormatSummary(format), content: format.content, example: exampleData(format.placeholders) };
}
