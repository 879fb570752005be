import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { DATABASE_INDEPENDENT_TESTS } from './database-independent.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * What a test file uses when it opens the run's database, directly or through a kit. An app is
 * built on a database opened first, so `buildApp` on an embedded database the file opened itself,
 * or the test kit's client and configuration without `createTestApp`, stay out of the run's.
 */
const OPENS_THE_RUN_DATABASE = [
  /\bTEST_DATABASE_URL\b/,
  /\bpostgresTemplateDb\b/,
  /\bcreate\w*TestApp/,
  /\bopenDatabase\((?!\{ driver: 'pglite')/,
  /\bfreshDatabase\b/,
  /test\/mail-test-app\.ts/,
  /test-kit\.ts/,
  /test\/signing-fixtures\.ts/,
  /test\/finished-batch\.ts/,
];

it('leaves out of the PostgreSQL pass only test files that never open its database', () => {
  for (const file of DATABASE_INDEPENDENT_TESTS) {
    const full = path.join(ROOT, file);
    expect(existsSync(full), `${file} is listed but does not exist`).toBe(true);
    const source = readFileSync(full, 'utf8');
    const uses = OPENS_THE_RUN_DATABASE.filter((pattern) => pattern.test(source)).map(String);
    expect(uses, `${file} opens the run's database, so the PostgreSQL pass must run it`).toEqual([]);
  }
});
