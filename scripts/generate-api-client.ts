/**
 * Writes the TypeScript types of the public API from the OpenAPI document the server serves:
 * `npm run api:client`. The client test regenerates them and fails when the committed file
 * differs, so the document, the types and the server cannot drift apart unnoticed.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateApiClientTypes } from '../src/server/modules/public-api/index.ts';

const target = path.join(import.meta.dirname, '..', 'src', 'server', 'modules', 'public-api', 'client', 'v1-schema.ts');
await writeFile(target, await generateApiClientTypes());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
