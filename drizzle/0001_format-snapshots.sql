CREATE TABLE "format_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"format_id" text NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"content" jsonb NOT NULL,
	"placeholders" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "snapshot_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "pdf_sha256" text NOT NULL;--> statement-breakpoint
ALTER TABLE "format_snapshots" ADD CONSTRAINT "format_snapshots_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "format_snapshots_format_version_idx" ON "format_snapshots" USING btree ("format_id","version");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_snapshot_id_format_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."format_snapshots"("id") ON DELETE no action ON UPDATE no action;