import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAppConfig } from '../../../contract/admin.ts';
import type { TDocument } from '../../../contract/documents.ts';
import type { TFormat } from '../../../contract/formats.ts';
import { pdfText } from '../../../render/testdata/pdf-tools.ts';
import { formats, workspaces } from '../../db/schema.ts';
import { createTestApp, TestClient, type TTestApp, signUpVerified } from '../../test/test-app.ts';

/*
 * A format is written in a language (docs/accessible-pdf.md): its own, else the installation's
 * `documents.locale`, kept in the version it is saved as. The PDF names it (`/Lang`) for screen
 * readers, and dates print in its style.
 */

let t: TTestApp;
let admin: TestClient;
let user: TestClient;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'root@example.com' });
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'root@example.com' });
  user = new TestClient(t.app);
  const { user: signedUp } = await user.signUp();
  // Room for the formats these tests save.
  await t.database.db.update(workspaces).set({ subscriptionPlan: 'enterprise' }).where(eq(workspaces.id, signedUp.id));
});
afterAll(async () => {
  await t.close();
});

const setLanguage = (value: string) => admin.post('/api/admin/settings', { key: 'documents.locale', value });

async function saveFormat(content: Record<string, unknown> = {}): Promise<TFormat> {
  const created = await user.post('/api/formats', {
    name: 'Lease',
    content: { elements: [{ id: 'p', type: 'paragraph', content: 'Signed on {{day}}.' }], ...content },
    placeholders: [{ name: 'day', type: 'date' }],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as TFormat;
}

/** The document's PDF, with the language its catalog names and its text. */
async function printed(format: TFormat): Promise<{ lang: string | undefined; text: string }> {
  const made = await user.post('/api/documents', { formatId: format.id, data: { day: '2026-03-02' } });
  expect(made.statusCode, made.body).toBe(201);
  const pdf = (await user.get(`/api/documents/${(made.json() as TDocument).id}/download`)).rawPayload;
  return { lang: /\/Lang \(([^)]*)\)/.exec(Buffer.from(pdf).toString('latin1'))?.[1], text: pdfText(pdf) };
}

describe('a format’s language', () => {
  it('is the installation’s when the format names none, kept in the version it was saved as', async () => {
    expect(((await user.get('/api/app-config')).json() as TAppConfig).documentLocale).toBe('en-US');
    const english = await saveFormat();
    expect(english.content.locale).toBe('en-US');

    // Written as an admin might type it: read in its canonical form.
    expect((await setLanguage('de-de')).statusCode).toBe(200);
    expect(((await user.get('/api/app-config')).json() as TAppConfig).documentLocale).toBe('de-DE');
    const german = await saveFormat();
    expect(german.content.locale).toBe('de-DE');
    expect(await printed(german)).toMatchObject({ lang: 'de-DE', text: expect.stringContaining('Signed on 2. März 2026.') });

    // A format saved before the change keeps its language, and so do its documents.
    expect((await user.get(`/api/formats/${english.id}`)).json()).toMatchObject({ content: { locale: 'en-US' } });
    expect(await printed(english)).toMatchObject({ lang: 'en-US', text: expect.stringContaining('Signed on March 2, 2026.') });
  });

  it('is the format’s own when it names one, whatever the installation’s, in its canonical form', async () => {
    expect((await setLanguage('de-DE')).statusCode).toBe(200);
    const french = await saveFormat({ locale: 'fr-fr' });
    expect(french.content.locale).toBe('fr-FR');
    expect(await printed(french)).toMatchObject({ lang: 'fr-FR', text: expect.stringContaining('Signed on 2 mars 2026.') });
  });

  it('stays en-US for a format saved before formats had a language, until someone chooses', async () => {
    expect((await setLanguage('de-DE')).statusCode).toBe(200);
    const old = await saveFormat();
    // As a version saved before this change holds it: no language at all.
    const { locale: _locale, ...withoutLanguage } = old.content;
    await t.database.db.update(formats).set({ content: withoutLanguage }).where(eq(formats.id, old.id));
    const updated = await user.request('PUT', `/api/formats/${old.id}`, { name: 'Lease, revised', content: withoutLanguage, placeholders: old.placeholders });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((updated.json() as TFormat).content.locale).toBeUndefined();
    expect(await printed(updated.json() as TFormat)).toMatchObject({ lang: 'en-US', text: expect.stringContaining('Signed on March 2, 2026.') });
  });

  it('refuses a setting that is not a language tag, and keeps the one it had', async () => {
    expect((await setLanguage('en-GB')).statusCode).toBe(200);
    // Not a tag; and a tag this runtime cannot print dates in, which would print in the host's style.
    for (const value of ['English please', 'zz-ZZ']) {
      const refused = await setLanguage(value);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: { message: expect.stringContaining('Enter a language tag such as en-GB, de-DE or hi-IN.') } });
    }
    expect(((await user.get('/api/app-config')).json() as TAppConfig).documentLocale).toBe('en-GB');
  });
});
