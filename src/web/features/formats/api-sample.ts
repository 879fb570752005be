import { exampleData, type TExampleData, type TExamplePlaceholder } from '../../../contract/example-data';
import { siteOrigin } from '../../lib/site';

/** Stands in for a format's id where no format is chosen yet. */
export const FORMAT_ID_STANDIN = 'FORMAT_ID';

/** The body of `POST /api/v1/documents` for a format: its id and its example data. */
export function documentRequestBody(formatId: string, placeholders: readonly TExamplePlaceholder[]): { formatId: string; data: TExampleData } {
  return { formatId, data: exampleData(placeholders) };
}

// Inside single quotes a shell takes everything literally except the quote itself.
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A curl call that makes a document of the format, runnable as it is once the key is in $FORMWORK_API_KEY. */
export function curlSample(body: { formatId: string; data: TExampleData }, origin: string = siteOrigin()): string {
  return [
    `curl -X POST "${origin}/api/v1/documents" \\`,
    '  -H "Authorization: Bearer $FORMWORK_API_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d ${shellQuoted(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}
