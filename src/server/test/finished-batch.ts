import { expect } from 'vitest';
import { ZBulkJob, type TBulkJob } from '../../contract/bulk.ts';
import type { TestClient } from './test-app.ts';

/** Uploads a CSV for `formatId` as `client`, starts the batch, and waits until it has finished. */
export async function finishedBatchOf(client: TestClient, formatId: string, fileName: string, csv: Buffer): Promise<TBulkJob> {
  const draft = (await client.upload(`/api/formats/${formatId}/bulk`, 'file', fileName, csv, 'text/csv')).json() as { id: string };
  expect((await client.post(`/api/bulk-jobs/${draft.id}/start`, { skipInvalid: false })).statusCode).toBe(202);
  for (;;) {
    const job = ZBulkJob.parse((await client.get(`/api/bulk-jobs/${draft.id}`)).json());
    if (job.status === 'completed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
