CREATE TABLE "bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"format_id" text,
	"format_name" text NOT NULL,
	"snapshot_id" text,
	"file_name" text NOT NULL,
	"file_name_pattern" text NOT NULL,
	"status" text NOT NULL,
	"columns" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"source_rows" jsonb,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bulk_rows" (
	"job_id" text NOT NULL,
	"row" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" jsonb NOT NULL,
	"status" text NOT NULL,
	"errors" jsonb,
	"document_id" text,
	CONSTRAINT "bulk_rows_job_id_row_pk" PRIMARY KEY("job_id","row")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "batch_id" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "batch_row" integer;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_format_id_formats_id_fk" FOREIGN KEY ("format_id") REFERENCES "public"."formats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_jobs" ADD CONSTRAINT "bulk_jobs_snapshot_id_format_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."format_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_rows" ADD CONSTRAINT "bulk_rows_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_owner_created_idx" ON "bulk_jobs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "bulk_jobs_status_idx" ON "bulk_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "bulk_rows_job_seq_idx" ON "bulk_rows" USING btree ("job_id","seq");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_batch_id_bulk_jobs_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "documents_batch_row_idx" ON "documents" USING btree ("batch_id","batch_row");