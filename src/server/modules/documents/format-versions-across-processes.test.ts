/**
 * Each process remembers which version of a format is current, and another process may save the
 * format meanwhile. The statement that stores a document checks the version it was made from, so
 * a document is never made from the version before a save its user has seen succeed, whichever
 * process answers. On CI's PostgreSQL pass the second instance has its own connection pool, as a
 * second process would.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pdfText } from '../../../render/testdata/pdf-tools.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type TDatabase } from '../../db/client.ts';
import { documents, usageCounters } from '../../db/schema.ts';
import { createTestApp, signUpOnPlan, TEST_ORIGIN, type TTestApp, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';

let t: TTestApp;
let second: { app: FastifyInstance; database: TDatabase | undefined };
beforeAll(async () => {
  t = await createTestApp();
  const database = t.databaseUrl ? await openDatabase({ driver: 'postgres', url: t.databaseUrl, poolSize: 4 }) : undefined;
  const app = await buildApp({ config: t.config, database: database ?? t.database, background: { passwordHashCost: TEST_PASSWORD_HASH_COST } });
  await app.ready();
  second = { app, database };
});
afterAll(async () => {
  await second.app.close();
  await second.database?.close();
  await t.close();
});

const note = (text: string) => ({
  name: 'Note',
  content: { elements: [{ id: 'p', type: 'paragraph', content: `${text} for {{client_name}}` }] },
  placeholders: [{ name: 'client_name', type: 'text', required: true }],
});

it(`makes each document from the version saved last, whichever of two instances on one ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'} database saved it`, async () => {
  const { client, user } = await signUpOnPlan(t, 'basic');
  const format = (await client.post('/api/formats', note('First edition'))).json() as TFormat;
  // The same signed-in person, answered by the other instance.
  const onSecond = (method: 'PUT' | 'DELETE', url: string, body?: unknown) =>
    second.app.inject({
      method,
      url,
      headers: { cookie: client.cookieHeader, origin: TEST_ORIGIN, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
  const make = (data: Record<string, unknown> = { client_name: 'Ann' }) => client.post('/api/documents', { formatId: format.id, data });
  const textOf = async (made: Awaited<ReturnType<typeof make>>) => {
    expect(made.statusCode, made.body).toBe(201);
    return pdfText((await client.get(`/api/documents/${(made.json() as TDocument).id}/download`)).rawPayload, { layout: true });
  };

  // The first instance now remembers version 1.
  expect(await textOf(await make())).toContain('First edition for Ann');
  expect((await onSecond('PUT', `/api/formats/${format.id}`, { ...note('Second edition'), name: 'Note, second edition' })).statusCode).toBe(200);
  const afterSave = await make();
  expect(afterSave.json()).toMatchObject({ formatName: 'Note, second edition' });
  expect(await textOf(afterSave)).toContain('Second edition for Ann');

  // A save that makes the data no longer fit: checked against the version now current.
  const stricter = { ...note('Third edition'), placeholders: [...note('').placeholders, { name: 'team', type: 'text', required: true }] };
  expect((await onSecond('PUT', `/api/formats/${format.id}`, stricter)).statusCode).toBe(200);
  const unfit = await make();
  expect(unfit.statusCode).toBe(400);
  expect(await textOf(await make({ client_name: 'Ann', team: 'Design' }))).toContain('Third edition for Ann');

  // Deleted by the other instance: not found, and nothing stored or counted for the attempt.
  expect((await onSecond('DELETE', `/api/formats/${format.id}`)).statusCode).toBe(204);
  expect((await make()).statusCode).toBe(404);
  const stored = await t.database.db.select({ version: documents.formatVersion }).from(documents).where(eq(documents.ownerId, user.id));
  expect(stored.map((d) => d.version).sort()).toEqual([1, 2, 3]);
  const [counter] = await t.database.db.select().from(usageCounters).where(eq(usageCounters.ownerId, user.id));
  expect(counter?.generations).toBe(3);
});
