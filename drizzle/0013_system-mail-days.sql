CREATE TABLE "system_mail_days" (
	"day" text PRIMARY KEY NOT NULL,
	"recipients" integer NOT NULL
);
