/**
 * Writes the TypeScript types of the public API from the OpenAPI document the server serves:
 * `npm run api:client`. The client test regenerates them and fails when the committed file
 * differs, so the document, the types and the server cannot drift apart unnoticed.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { servedOpenApiDocument, typesFromOpenApi } from '../src/server/modules/public-api/client/openapi-types.ts';

const target = path.join(import.meta.dirname, '..', 'src', 'server', 'modules', 'public-api', 'client', 'v1-schema.ts');
await writeFile(target, await typesFromOpenApi(await servedOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
