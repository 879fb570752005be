import { and, eq, sql } from 'drizzle-orm';
import { bulkJobs, bulkRows, documents } from '../../db/schema.ts';

// Query pieces both the job and the chunk queries use.

export const jobWhere = (ownerId: string, id: string) => and(eq(bulkJobs.ownerId, ownerId), eq(bulkJobs.id, id));

/** A job's row still waiting for its document: 'pending' and no document stored for it yet. */
export const withoutDocument = (ownerId: string, jobId: string) =>
  sql`not exists (select 1 from ${documents} where ${documents.ownerId} = ${ownerId} and ${documents.batchId} = ${jobId} and ${documents.batchRow} = ${bulkRows.row})`;
export const UNFINISHED = ['queued', 'running'] as const;
