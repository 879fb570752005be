CREATE TABLE "signed_documents" (
	"request_id" text PRIMARY KEY NOT NULL,
	"pdf" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "signature_requests_open_expiry_idx";--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD COLUMN "purpose" text DEFAULT 'document' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD COLUMN "signer_id" text;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD COLUMN "signature_request_id" text;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signed_documents" ADD CONSTRAINT "signed_documents_request_id_signature_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_signer_id_signature_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."signature_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_deliveries" ADD CONSTRAINT "email_deliveries_signature_request_id_signature_requests_id_fk" FOREIGN KEY ("signature_request_id") REFERENCES "public"."signature_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signature_requests_sealed_idx" ON "signature_requests" USING btree ("sealed_sha256");--> statement-breakpoint
CREATE INDEX "signature_requests_due_idx" ON "signature_requests" USING btree ("next_check_at") WHERE "signature_requests"."next_check_at" is not null;