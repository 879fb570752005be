import { describe, expect, it } from 'vitest';
import { ZV1Batch } from '../../../contract/public-api.ts';
import { multipartBody, type TTestApp } from '../../test/test-app.ts';
import { errorOf, publicApiTestKit } from './test/public-api-test-kit.ts';

/*
 * A batch started from a spreadsheet sends its fields as multipart text, which neither the route's
 * schema nor the text guard sees. They are held to what a JSON batch's fields are, with the same
 * 400s; before, a NUL answered 500 and an over-long or blank pattern was accepted.
 */

let t: TTestApp;
const { enterpriseMember } = publicApiTestKit((app) => {
  t = app;
});

const CSV = Buffer.from('Candidate,Salary,Start,Team\nJane Doe,85000,2027-01-04,Sales\n');

/** A spreadsheet upload with `fields` sent before the file, as the API asks. */
async function startBatch(key: string, fields: Record<string, string>, bytes = CSV, fileName = 'people.csv') {
  const { payload, headers } = multipartBody('file', fileName, bytes, 'text/csv');
  const boundary = headers['content-type'].split('boundary=')[1]!;
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/batches',
    headers: { ...headers, authorization: `Bearer ${key}` },
    payload: Buffer.concat([...parts, payload]),
  });
}

describe('a spreadsheet batch’s fields', () => {
  it('refuses NUL in any field with the 400 a JSON body gets, naming the field', async () => {
    const { key, formatId } = await enterpriseMember();
    const bad: Record<string, string>[] = [{ formatId: `${formatId}\u0000` }, { formatId, fileNamePattern: 'offer-\u0000{{client_name}}' }];
    for (const fields of bad) {
      const refused = await startBatch(key, fields);
      expect(refused.statusCode, refused.body).toBe(400);
      const field = Object.keys(fields).at(-1)!;
      expect(errorOf(refused)).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.stringContaining('NUL') } });
    }
  });

  it('holds the file name pattern to the JSON schema: at most 200 characters, not blank', async () => {
    const { key, formatId, call } = await enterpriseMember();
    for (const [pattern, message] of [
      ['a'.repeat(1_000), 'The file name pattern is too long.'],
      ['     ', 'Enter a file name pattern.'],
    ] as const) {
      const refused = await startBatch(key, { formatId, fileNamePattern: pattern });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(errorOf(refused)).toMatchObject({ code: 'validation_failed', fields: { fileNamePattern: message } });
      // The JSON path says the same of the same pattern.
      const json = await call('POST', '/api/v1/batches', { formatId, rows: [{ client_name: 'Jane' }], fileNamePattern: pattern });
      expect(errorOf(json)).toMatchObject({ code: 'validation_failed', fields: { fileNamePattern: message } });
    }
    const longId = await startBatch(key, { formatId: 'f'.repeat(65) });
    expect(longId.statusCode).toBe(400);
    expect(errorOf(longId).fields).toHaveProperty('formatId');
    const notBoolean = await startBatch(key, { formatId, skipInvalid: 'maybe' });
    expect(notBoolean.statusCode).toBe(400);
    expect(errorOf(notBoolean)).toMatchObject({ fields: { skipInvalid: 'Send "true" or "false".' } });
  });

  it('starts a batch from fields that pass', async () => {
    const { key, formatId } = await enterpriseMember();
    const started = await startBatch(key, { formatId, fileNamePattern: '  Offer {{client_name}} ', skipInvalid: 'True' });
    expect(started.statusCode, started.body).toBe(202);
    expect(ZV1Batch.parse(started.json())).toMatchObject({ total: 1, skipped: 0 });
  });

  it('takes a UTF-16 spreadsheet with NUL in a cell, reading it without the NUL', async () => {
    const { key, formatId } = await enterpriseMember();
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Candidate,Salary\r\nJane\u0000 Doe,85000\r\n', 'utf16le')]);
    const started = await startBatch(key, { formatId }, utf16, 'peo\u0000ple.csv');
    expect(started.statusCode, started.body).toBe(202);
    expect(ZV1Batch.parse(started.json())).toMatchObject({ total: 1 });
  });
});

describe('a broken multipart batch', () => {
  it('is a 400 naming the problem', async () => {
    const { key } = await enterpriseMember();
    for (const [contentType, payload] of [
      ['multipart/form-data', 'no boundary at all'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nName\nAnn'],
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { 'content-type': contentType!, authorization: `Bearer ${key}` },
        payload: payload!,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(errorOf(refused).code).toBe('bad_request');
    }
  });
});
