CREATE TABLE "email_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"document_id" text NOT NULL,
	"to" jsonb NOT NULL,
	"cc" jsonb NOT NULL,
	"recipient_count" integer NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"transport" text,
	"smtp_response" text,
	"error" text,
	"attachment" text,
	"share_link_id" text,
	"merge_id" text,
	"batch_row" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_merges" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"job_id" text NOT NULL,
	"address_column" integer NOT NULL,
	"address_header" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"cc" jsonb NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"document_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_enc" text NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"views" integer DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bulk_rows" ADD COLUMN "extra" jsonb;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_share_link_id_share_links_id_fk" FOREIGN KEY ("share_link_id") REFERENCES "public"."share_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_merge_id_mail_merges_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."mail_merges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_merges" ADD CONSTRAINT "mail_merges_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_merges" ADD CONSTRAINT "mail_merges_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_deliveries_due_idx" ON "email_deliveries" USING btree ("next_attempt_at") WHERE "email_deliveries"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "email_deliveries_document_idx" ON "email_deliveries" USING btree ("document_id","created_at");--> statement-breakpoint
CREATE INDEX "email_deliveries_owner_created_idx" ON "email_deliveries" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "email_deliveries_owner_attempted_idx" ON "email_deliveries" USING btree ("owner_id","attempted_at") WHERE "email_deliveries"."status" in ('sent', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "email_deliveries_merge_row_idx" ON "email_deliveries" USING btree ("merge_id","batch_row");--> statement-breakpoint
CREATE INDEX "email_deliveries_merge_status_idx" ON "email_deliveries" USING btree ("merge_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_merges_job_idx" ON "mail_merges" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_hash_idx" ON "share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "share_links_document_idx" ON "share_links" USING btree ("document_id","created_at");