import type { TBulkJob } from '../../../contract/bulk.ts';
import type { TBulkChunkSender } from '../../jobs/bulk-chunk.job.ts';
import type { TPdfSpool } from '../../jobs/pdf-spool.ts';
import type { TRenderPool } from '../../jobs/render-pool.ts';
import type { TAssetsService } from '../assets/index.ts';
import type { TFormatsService } from '../formats/index.ts';
import type { TQuotaService } from '../quota/index.ts';
import type { TBulkRepository } from './bulk.repository.ts';

/** What the bulk use cases work with; createBulkService hands the same object to each. */
export type TBulkServiceDeps = {
  /** Told when a job ends (webhooks). */
  events?: { batchFinished(ownerId: string, job: TBulkJob): Promise<void> };
  bulk: TBulkRepository;
  formats: Pick<TFormatsService, 'findOwned' | 'snapshotOf'>;
  quota: TQuotaService;
  assets: TAssetsService;
  pool: () => Promise<TRenderPool>;
  spool: TPdfSpool;
  chunks: () => Promise<TBulkChunkSender>;
  log: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
  /** How long a ZIP download may go without the client reading before it is dropped. */
  zipStallMs?: number;
};
