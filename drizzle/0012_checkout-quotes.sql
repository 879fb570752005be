CREATE TABLE "checkout_quotes" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"session_key" text NOT NULL,
	"plan_id" text NOT NULL,
	"cycle" text NOT NULL,
	"gateway" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"priced_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_quotes" ADD CONSTRAINT "checkout_quotes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_quotes_expires_idx" ON "checkout_quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");