import type { TAuditEntry } from '../../../contract/admin.ts';
import type { TAdminContext } from './admin-context.ts';

/** The audit log, newest first, a page at a time. */
export async function auditEntries({ deps }: TAdminContext, limit: number, offset: number): Promise<{ entries: TAuditEntry[]; total: number }> {
  const { rows, total } = await deps.admin.auditEntries(limit, offset);
  return {
    total,
    entries: rows.map((row) => ({
      id: row.id,
      actorEmail: row.actorEmail,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
