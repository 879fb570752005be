import { randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { users } from './db/schema.ts';
import { serializeError } from './log-errors.ts';
import { createTestApp, type TTestApp } from './test/test-app.ts';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A real failed query whose parameters, and PostgreSQL's detail, hold `marker`. */
async function failedQuery(marker: string): Promise<Error> {
  const email = `${marker}@example.com`;
  await t.database.db.insert(users).values({ id: randomUUID(), name: marker, email });
  try {
    await t.database.db.insert(users).values({ id: randomUUID(), name: `${marker} again`, email });
  } catch (error) {
    return error as Error;
  }
  throw new Error('the duplicate insert did not fail');
}

describe('logged errors', () => {
  it('keep the SQL, the code and the constraint, and none of the values', async () => {
    const marker = `secret-${randomBytes(6).toString('hex')}`;
    const error = await failedQuery(marker);
    // Unserialised, the error does carry the data: the reason for the serializer.
    expect(JSON.stringify({ message: error.message, stack: error.stack, cause: String(error.cause) })).toContain(marker);

    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain(marker);
    expect(logged).toContain('insert into \\"users\\"');
    expect(logged).toContain('23505');
    expect(logged).toContain('users_email_unique');
  });

  it('are written that way by the app logger', async () => {
    const marker = `secret-${randomBytes(6).toString('hex')}`;
    const error = await failedQuery(marker);
    const stream = new PassThrough();
    let output = '';
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const app = await buildApp({ config: { ...t.config, logLevel: 'error' }, database: t.database, logStream: stream });
    try {
      app.log.error({ err: error }, 'unhandled error');
      await new Promise((resolve) => setImmediate(resolve));
      expect(output).toContain('unhandled error');
      expect(output).toContain('23505');
      expect(output).not.toContain(marker);
    } finally {
      await app.close();
    }
  });
});
