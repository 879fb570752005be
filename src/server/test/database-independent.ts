/**
 * Server test files that never open the database a test run is given: they test code that has no
 * database (a cache, a parser, a crypto helper), or PGlite itself, or start the server as `npm
 * start` does (or run an operator's script) on an embedded database of their own. CI's second pass
 * over the server suite on PostgreSQL (TEST_DATABASE_URL) would run them exactly as the first pass
 * did, so it leaves them out. database-independent.test.ts holds each to that.
 */
export const DATABASE_INDEPENDENT_TESTS = [
  'src/server/main.test.ts',
  'src/server/crypto/secret-box.test.ts',
  'src/server/db/grouped-writes.test.ts',
  'src/server/db/pglite-remote.test.ts',
  'src/server/db/shared-reads.test.ts',
  'src/server/files/zip-writer.test.ts',
  'src/server/jobs/bounded-lru.test.ts',
  'src/server/jobs/moved-bytes.test.ts',
  'src/server/jobs/pdf-cache.test.ts',
  'src/server/jobs/pdf-spool.test.ts',
  'src/server/jobs/render-turns.test.ts',
  'src/server/jobs/shared-render-inputs.test.ts',
  'src/server/jobs/thread-priority.test.ts',
  'src/server/modules/auth/admin-account.test.ts',
  'src/server/modules/auth/password-hasher.test.ts',
  'src/server/modules/auth/session-memo.test.ts',
  'src/server/modules/billing/periods.test.ts',
  'src/server/modules/bulk/bulk-crash.test.ts',
  'src/server/modules/bulk/column-mapping.test.ts',
  'src/server/modules/bulk/spreadsheet.test.ts',
  'src/server/modules/bulk/spreadsheet/cell-values.test.ts',
  'src/server/modules/bulk/zip-names.test.ts',
  'src/server/modules/pdf/pdf.service.test.ts',
  'src/server/modules/signing/certificate.test.ts',
  'src/server/modules/template-import/convert.test.ts',
  'src/server/modules/template-import/import-pool.test.ts',
  'src/server/net/address-rule.test.ts',
  'src/server/test/embedded-databases.test.ts',
];
