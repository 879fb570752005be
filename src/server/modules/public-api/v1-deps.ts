import type { TBulkService } from '../bulk/index.ts';
import type { TDeliveriesService } from '../delivery/index.ts';
import type { TDocumentsService } from '../documents/index.ts';
import type { TFormatsService } from '../formats/index.ts';
import type { TSigningService } from '../signing/index.ts';
import type { TPublicApiService } from './public-api.service.ts';

/** What the /api/v1 routes and their use cases work with. */
export type TPublicApiDeps = {
  publicUrl: string;
  formats: TFormatsService;
  documents: TDocumentsService;
  deliveries: TDeliveriesService;
  bulk: TBulkService;
  signing: TSigningService;
  publicApi: TPublicApiService;
};
