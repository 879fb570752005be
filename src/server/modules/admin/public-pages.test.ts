import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAppConfig, TAuditEntry, TSystemSetting } from '../../../contract/admin.ts';
import type { TPublicPages } from '../../../contract/public-pages.ts';
import { systemSettings } from '../../db/schema.ts';
import { createTestApp, signUpVerified, TestClient, type TTestApp } from '../../test/test-app.ts';

let t: TTestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'owner@example.com' });
  admin = new TestClient(t.app);
  await signUpVerified(t, admin, { email: 'owner@example.com' });
});
afterAll(async () => {
  await t.close();
});

const appConfig = async () => (await new TestClient(t.app).get('/api/app-config')).json() as TAppConfig;
const put = (client: TestClient, body: unknown) => client.request('PUT', '/api/admin/public-pages', body);

const CONTENT: TPublicPages = {
  figures: [
    { value: '1,204', label: 'documents made last month' },
    { value: '14', label: 'teams' },
  ],
  testimonials: [{ quote: 'Our offer letters go out the same day.', name: 'Ingrid Solberg', role: 'People Lead', company: 'Acme Tools' }],
  team: [{ name: 'Jonas Berg', role: 'Operations', bio: '' }],
};

describe('public pages settings', () => {
  it('start empty: a new installation claims no figures, quotes nobody and names no contact address', async () => {
    const config = await appConfig();
    expect(config.publicPages).toEqual({ figures: [], testimonials: [], team: [] });
    expect(config.supportEmail).toBeNull();
    expect(config.salesEmail).toBeNull();
    expect(JSON.stringify(config)).not.toMatch(/formwork\.app|500\+/);
    expect((await admin.get('/api/admin/public-pages')).json()).toEqual({ figures: [], testimonials: [], team: [] });
  });

  it('are for admins only', async () => {
    expect((await new TestClient(t.app).get('/api/admin/public-pages')).statusCode).toBe(401);
    expect((await put(new TestClient(t.app), CONTENT)).statusCode).toBe(401);
    const user = new TestClient(t.app);
    await user.signUp();
    expect((await user.get('/api/admin/public-pages')).statusCode).toBe(403);
    expect((await put(user, CONTENT)).statusCode).toBe(403);
    expect((await appConfig()).publicPages.figures).toEqual([]);
  });

  it('refuse what does not fit, naming the field, and keep what was saved', async () => {
    const missingLabel = await put(admin, { ...CONTENT, figures: [{ value: '12', label: '  ' }] });
    expect(missingLabel.statusCode).toBe(400);
    expect(missingLabel.json()).toMatchObject({ error: { code: 'validation_failed', fields: { 'figures.0.label': 'Say what it counts.' } } });

    const tooMany = await put(admin, { ...CONTENT, figures: Array.from({ length: 9 }, (_, i) => ({ value: String(i), label: 'things' })) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ error: { fields: { figures: 'Show at most 8 figures.' } } });

    const longQuote = await put(admin, { ...CONTENT, testimonials: [{ ...CONTENT.testimonials[0], quote: 'x'.repeat(601) }] });
    expect(longQuote.statusCode).toBe(400);
    expect(Object.keys(longQuote.json().error.fields)).toEqual(['testimonials.0.quote']);

    expect((await put(admin, { figures: [] })).statusCode).toBe(400);
    expect((await put(admin, { ...CONTENT, team: [{ name: 'A', role: 3, bio: '' }] })).statusCode).toBe(400);
    expect((await appConfig()).publicPages).toEqual({ figures: [], testimonials: [], team: [] });
  });

  it('reach the public config at once when saved, trimmed, in the order given, and are audited by count', async () => {
    const saved = await put(admin, { ...CONTENT, team: [{ name: '  Jonas Berg ', role: 'Operations', bio: '' }] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(CONTENT);
    expect((await appConfig()).publicPages).toEqual(CONTENT);

    const reordered = { ...CONTENT, figures: [CONTENT.figures[1]!, CONTENT.figures[0]!] };
    expect((await put(admin, reordered)).statusCode).toBe(200);
    expect((await appConfig()).publicPages.figures.map((f) => f.value)).toEqual(['14', '1,204']);

    const audit = (await admin.get('/api/admin/audit')).json() as { entries: TAuditEntry[] };
    expect(audit.entries[0]).toMatchObject({ action: 'public-pages.update', details: { figures: 2, testimonials: 1, team: 1 } });
  });

  it('are edited only through their own editor, never as a raw setting', async () => {
    const raw = await admin.post('/api/admin/settings', { key: 'public.pages', value: '{"figures":[{"value":"500+","label":"businesses"}]}' });
    expect(raw.statusCode).toBe(409);
    expect(raw.json().error.message).toMatch(/Public pages/);
    expect((await admin.request('PUT', '/api/admin/settings/public.pages', { value: '{}' })).statusCode).toBe(409);
    expect((await admin.request('DELETE', '/api/admin/settings/public.pages')).statusCode).toBe(409);
    const listed = (await admin.get('/api/admin/settings')).json() as TSystemSetting[];
    expect(listed.map((s) => s.key)).not.toContain('public.pages');
  });

  it('expose only the public part: other settings never reach the public config', async () => {
    for (const [key, value] of [
      ['billing.seller_tax_id', 'GSTIN 29ABCDE1234F1Z5'],
      ['billing.seller_address', '1 Quiet Lane'],
      ['mail.daily_limit', '250'],
      ['support.email', 'help@acme.example'],
    ] as const) {
      expect((await admin.post('/api/admin/settings', { key, value })).statusCode).toBe(200);
    }
    const config = await appConfig();
    expect(Object.keys(config).sort()).toEqual(['documentLocale', 'publicPages', 'publicUrl', 'salesEmail', 'signUps', 'supportEmail']);
    expect(config.supportEmail).toBe('help@acme.example');
    expect(config.salesEmail).toBeNull();
    expect(JSON.stringify(config)).not.toMatch(/GSTIN|Quiet Lane|250/);
    expect((await admin.request('DELETE', '/api/admin/settings/support.email')).statusCode).toBe(204);
    expect((await appConfig()).supportEmail).toBeNull();
  });

  it('fall back to showing nothing when the stored value is broken, rather than failing the pages', async () => {
    await t.database.db
      .insert(systemSettings)
      .values({ key: 'public.pages', value: '{"figures":[{"value":"500+"}]}' })
      .onConflictDoUpdate({ target: systemSettings.key, set: { value: '{"figures":[{"value":"500+"}]}' } });
    // Written behind the app's back: it shows once the few seconds' cache has passed, or at the next admin save.
    expect((await admin.post('/api/admin/settings', { key: 'sales.email', value: 'sales@acme.example' })).statusCode).toBe(200);
    const config = await appConfig();
    expect(config.publicPages).toEqual({ figures: [], testimonials: [], team: [] });
    expect((await admin.get('/api/admin/public-pages')).json()).toEqual({ figures: [], testimonials: [], team: [] });
  });
});
