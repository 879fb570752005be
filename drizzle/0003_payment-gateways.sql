CREATE TABLE "payment_gateways" (
	"id" text PRIMARY KEY NOT NULL,
	"gateway_name" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"key_id" text NOT NULL,
	"key_secret_enc" text,
	"webhook_secret_enc" text,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
