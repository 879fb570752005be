CREATE TABLE "system_mail_days" (
	"day" text PRIMARY KEY NOT NULL,
	"recipients" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "async_documents" ADD COLUMN "test_mode" boolean DEFAULT false NOT NULL;