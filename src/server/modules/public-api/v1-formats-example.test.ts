import { describe, expect, it } from 'vitest';
import { EXAMPLE_DATE } from '../../../contract/example-data.ts';
import { ZV1Document, ZV1Format } from '../../../contract/public-api.ts';
import { STARTER_FORMATS } from '../../../contract/starter-formats/index.ts';
import { errorOf, OFFER, publicApiTestKit } from './test/public-api-test-kit.ts';

const { enterpriseMember } = publicApiTestKit(() => {});

describe('a format’s example data', () => {
  it('is served with the format and makes a document as it is', async () => {
    const { call, formatId } = await enterpriseMember();
    const format = ZV1Format.parse((await call('GET', `/api/v1/formats/${formatId}`)).json());
    expect(format.example).toEqual({ client_name: 'Jane Doe', salary: 1200, start: EXAMPLE_DATE, team: 'Sales' });
    const made = await call('POST', '/api/v1/documents', { formatId, data: format.example });
    expect(made.statusCode).toBe(201);

    const created = await call('POST', '/api/v1/formats', { ...OFFER, name: 'From the API' });
    expect(ZV1Format.parse(created.json()).example).toEqual(format.example);
  });

  it.each(STARTER_FORMATS.map((s) => [s.name, s] as const))('makes a document of the %s starter through /api/v1/documents', async (_name, starter) => {
    const { call } = await enterpriseMember();
    const created = await call('POST', '/api/v1/formats', { name: starter.name, content: starter.content, placeholders: starter.placeholders });
    expect(created.statusCode).toBe(201);
    const format = ZV1Format.parse(created.json());
    const made = await call('POST', '/api/v1/documents', { formatId: format.id, data: format.example });
    expect(made.statusCode, JSON.stringify(made.json())).toBe(201);
    expect(ZV1Document.parse(made.json()).formatId).toBe(format.id);
  });

  it('is what the API tab’s sample sends, which used to name no real field', async () => {
    const { call, formatId } = await enterpriseMember();
    // The old sample: one made-up field, the format's required ones missing.
    const old = await call('POST', '/api/v1/documents', { formatId, data: { client_name: 'Jane Doe' } });
    expect(old.statusCode).toBe(400);
    expect(errorOf(old).message).toContain('Salary');
  });
});
