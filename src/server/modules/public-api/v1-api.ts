import { createV1Batches } from './v1-batches.ts';
import type { TPublicApiDeps } from './v1-deps.ts';
import { createV1Documents } from './v1-documents.ts';
import { createV1Formats } from './v1-formats.ts';
import { createV1Signing } from './v1-signing.ts';
import { v1Urls } from './v1-shapes.ts';

/** The /api/v1 use cases, each answering in the API's own shapes with absolute URLs. */
export function createV1Api(deps: TPublicApiDeps) {
  const urls = v1Urls(deps.publicUrl);
  return {
    formats: createV1Formats(deps, urls),
    documents: createV1Documents(deps, urls),
    batches: createV1Batches(deps, urls),
    signing: createV1Signing(deps, urls),
  };
}
export type TV1Api = ReturnType<typeof createV1Api>;
