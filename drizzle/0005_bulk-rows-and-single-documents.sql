-- Idempotent: an early build of this migration (never released) dropped the column alone.
CREATE INDEX IF NOT EXISTS "documents_owner_single_created_idx" ON "documents" USING btree ("owner_id","created_at") WHERE "documents"."batch_id" is null;--> statement-breakpoint
ALTER TABLE "bulk_rows" DROP COLUMN IF EXISTS "document_id";
