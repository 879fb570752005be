CREATE TABLE "sign_in_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_ends" timestamp with time zone NOT NULL,
	"wait_until" timestamp with time zone
);
