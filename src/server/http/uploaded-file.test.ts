import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, TEST_ORIGIN, TestClient, type TTestApp } from '../test/test-app.ts';

let t: TTestApp;
let client: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  client = new TestClient(t.app);
  await client.signUp();
});
afterAll(async () => {
  await t.close();
});

const BOUNDARY = '----formwork-broken';
const head = (field: string, fileName: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;

/** Bodies a broken or hostile client sends as multipart/form-data, each with its Content-Type. */
const BROKEN: { what: string; contentType: string; payload: Buffer }[] = [
  { what: 'no boundary', contentType: 'multipart/form-data', payload: Buffer.from(`${head('file', 'a.bin')}bytes\r\n--${BOUNDARY}--\r\n`) },
  {
    what: 'a body that ends inside the file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.from(`${head('file', 'a.bin')}some bytes`),
  },
  {
    what: 'a body that ends inside the part headers',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`),
  },
  {
    what: 'a boundary longer than any parser takes',
    contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`,
    payload: Buffer.from(`--${'b'.repeat(300)}\r\n`),
  },
];

/** Every route that reads an upload; each reads it through readUploadedFile. */
const ROUTES = ['/api/upload/image', '/api/formats/some-format/bulk', '/api/verify', '/api/formats/import'];

describe('a broken multipart upload', () => {
  for (const url of ROUTES) {
    for (const { what, contentType, payload } of BROKEN) {
      it(`is a 400 naming the problem at ${url}: ${what}`, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': contentType, cookie: client.cookieHeader, origin: TEST_ORIGIN },
        });
        expect(response.statusCode, response.body).toBe(400);
        const error = errorOf(response);
        expect(error.code).toBe('bad_request');
        expect(error.message).toMatch(/^The upload (is not|ended|was)/);
      });
    }
  }

  it('names the image route’s missing file as every upload route does', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/upload/image',
      payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, cookie: client.cookieHeader, origin: TEST_ORIGIN },
    });
    expect(none.statusCode).toBe(400);
    expect(errorOf(none)).toMatchObject({ code: 'bad_request', message: 'No file was attached.', fields: { image: 'Choose an image to upload.' } });
  });
});
