import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users, workspaces } from './schema.ts';

/**
 * True unless the workspace in `ownerColumn` is the personal one of a suspended person. What a
 * suspended account has put out by link (a share link, a signing link) stops answering with it,
 * as its sessions and API keys do, and answers again once the account is restored.
 */
export const ownerNotSuspended = (ownerColumn: AnyPgColumn): SQL =>
  sql`not exists (select 1 from ${workspaces} join ${users} on ${users.id} = ${workspaces.personalUserId}
    where ${workspaces.id} = ${ownerColumn} and ${users.suspendedAt} is not null)`;
