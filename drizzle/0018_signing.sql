CREATE TABLE "seal_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"seal_certificate" "bytea" NOT NULL,
	"ca_certificate" "bytea" NOT NULL,
	"private_key_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"signer_id" text,
	"ip" text,
	"user_agent" text,
	"document_sha256" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"document_id" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"message" text,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reminder_days" jsonb DEFAULT '[3,7]'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"document_sha256" text NOT NULL,
	"sealed_sha256" text,
	"events_head" text DEFAULT '' NOT NULL,
	"event_count" integer DEFAULT 0 NOT NULL,
	"batch_id" text,
	"batch_row" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_signers" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"role" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"order" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"token_hash" text NOT NULL,
	"token_enc" text NOT NULL,
	"notified_at" timestamp with time zone,
	"last_reminded_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"consent_version" text,
	"signature_text" text,
	"signature_png" "bytea",
	"initials_text" text,
	"initials_png" "bytea"
);
--> statement-breakpoint
ALTER TABLE "signature_events" ADD CONSTRAINT "signature_events_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_batch_id_bulk_jobs_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_signers" ADD CONSTRAINT "signature_signers_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seal_keys_in_use_idx" ON "seal_keys" USING btree ((true)) WHERE "seal_keys"."retired_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "signature_events_request_seq_idx" ON "signature_events" USING btree ("request_id","seq");--> statement-breakpoint
CREATE INDEX "signature_requests_owner_created_idx" ON "signature_requests" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "signature_requests_document_idx" ON "signature_requests" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_requests_batch_row_idx" ON "signature_requests" USING btree ("batch_id","batch_row") WHERE "signature_requests"."batch_id" is not null;--> statement-breakpoint
CREATE INDEX "signature_requests_open_expiry_idx" ON "signature_requests" USING btree ("expires_at") WHERE "signature_requests"."status" in ('sent', 'partly_signed');--> statement-breakpoint
CREATE UNIQUE INDEX "signature_signers_token_hash_idx" ON "signature_signers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signature_signers_request_idx" ON "signature_signers" USING btree ("request_id","order");--> statement-breakpoint
-- The audit trail is append-only in the database too: no row is ever changed, and a row goes only
-- with its request (when its owner's account is deleted).
CREATE FUNCTION "signature_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM "signature_requests" WHERE "id" = OLD."request_id") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'signature_events rows are never changed or removed';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "signature_events_append_only" BEFORE UPDATE OR DELETE ON "signature_events" FOR EACH ROW EXECUTE FUNCTION "signature_events_append_only"();
