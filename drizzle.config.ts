import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema files (one per domain); the same folder runs on PGlite
// and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/*.ts',
  out: './drizzle',
});
