/**
 * Reads the served OpenAPI document into what the reference page shows: operations by tag, the
 * fields of each body and answer, and ready-to-run samples. Nothing here is written by hand per
 * endpoint, so the page cannot disagree with the server.
 */

export type TSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, TSchema>;
  required?: string[];
  items?: TSchema;
  enum?: unknown[];
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  allOf?: TSchema[];
  const?: unknown;
  description?: string;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  additionalProperties?: TSchema | boolean;
};

export type TParameter = { in: string; name: string; required?: boolean; description?: string; schema?: TSchema };
type TContent = Record<string, { schema?: TSchema }>;
export type TOperationDoc = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: TParameter[];
  requestBody?: { content?: TContent };
  responses: Record<string, { description?: string; content?: TContent }>;
};
export type TOpenApiDocument = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, TOperationDoc>>;
  components?: { schemas?: Record<string, TSchema> };
};

export type TOperation = TOperationDoc & { method: string; path: string; id: string };

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** Operations grouped by their first tag, in the document's tag order. */
export function operationsByTag(doc: TOpenApiDocument): { tag: string; description?: string; operations: TOperation[] }[] {
  const groups = new Map<string, TOperation[]>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, []);
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of METHOD_ORDER) {
      const operation = methods[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ ...operation, method, path, id: `${method}-${path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}` });
    }
  }
  return [...groups]
    .filter(([, operations]) => operations.length > 0)
    .map(([tag, operations]) => ({
      tag,
      description: doc.tags?.find((t) => t.name === tag)?.description,
      operations,
    }));
}

/** The schema a `$ref` points at; other schemas as they are. */
export function resolve(doc: TOpenApiDocument, schema: TSchema | undefined): TSchema {
  let current = schema ?? {};
  for (let i = 0; i < 10 && current.$ref; i++) {
    const name = current.$ref.split('/').pop() ?? '';
    current = { ...doc.components?.schemas?.[name], ...(current.description ? { description: current.description } : {}) };
  }
  return current;
}

export function refName(schema: TSchema | undefined): string | undefined {
  return schema?.$ref
    ?.split('/')
    .pop()
    ?.replace(/Input$/, '');
}

/** A short type label: "string", "integer (1–100)", "one of: text, email", "array of Placeholder". */
export function typeLabel(doc: TOpenApiDocument, raw: TSchema): string {
  const schema = resolve(doc, raw);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return `one of: ${schema.enum.map((v) => String(v)).join(', ')}`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const labels = [...new Set(alternatives.map((a) => typeLabel(doc, a)))];
    return labels.join(' or ');
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
  if (type === 'array') return `array of ${refName(raw.items ?? schema.items) ?? typeLabel(doc, schema.items ?? {})}`;
  if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
    return `object of ${typeLabel(doc, schema.additionalProperties)}`;
  }
  const range =
    schema.minimum !== undefined && schema.maximum !== undefined
      ? ` (${schema.minimum}–${schema.maximum})`
      : schema.maxLength
        ? ` (≤ ${schema.maxLength} chars)`
        : '';
  return `${refName(raw) && type === 'object' ? refName(raw) : (type ?? 'any')}${range}`;
}

export type TField = { name: string; type: string; required: boolean; description?: string; depth: number };

/** The fields of an object schema, nested objects one level in ("data.name"), for a table. */
export function fieldsOf(doc: TOpenApiDocument, raw: TSchema | undefined, prefix = '', depth = 0): TField[] {
  const schema = resolve(doc, raw);
  const fields: TField[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const resolved = resolve(doc, property);
    fields.push({
      name: `${prefix}${name}`,
      type: typeLabel(doc, property),
      required: schema.required?.includes(name) ?? false,
      description: resolved.description ?? property.description,
      depth,
    });
    if (depth < 1 && resolved.properties && !refName(property)) fields.push(...fieldsOf(doc, property, `${prefix}${name}.`, depth + 1));
  }
  return fields;
}

/** A plausible value for a schema, for samples; ids and placeholders read as such. */
export function exampleOf(doc: TOpenApiDocument, raw: TSchema | undefined, name = '', depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 4) return null;
  if (name === 'data') return { client_name: 'Jane Doe', amount: 1200 };
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return exampleOf(doc, alternatives.find((a) => resolve(doc, a).type !== 'null') ?? alternatives[0], name, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (depth === 0 || schema.required?.includes(key)) out[key] = exampleOf(doc, property, key, depth + 1);
      }
      return out;
    }
    case 'array':
      return name === 'rows' ? [{ client_name: 'Jane Doe' }, { client_name: 'Ravi Patel' }] : [exampleOf(doc, schema.items, name, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (/id$/i.test(name)) return 'fmt_123';
      if (schema.format === 'date-time') return '2026-11-01T00:00:00Z';
      return name ? `your ${name}` : 'text';
    default:
      return null;
  }
}

/** The request body a sample sends: only what is required, plus `data` (what every generation needs). */
export function sampleBody(doc: TOpenApiDocument, operation: TOperation): unknown {
  const schema = resolve(doc, operation.requestBody?.content?.['application/json']?.schema);
  if (!schema.properties) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    if (schema.required?.includes(key) || key === 'data') out[key] = exampleOf(doc, property, key, 1);
  }
  return out;
}

/** The path with example ids filled in. */
export function samplePath(path: string): string {
  return path.replace('{id}', 'ID');
}

export type TSampleLanguage = 'curl' | 'javascript' | 'python';
export const SAMPLE_LANGUAGES: { id: TSampleLanguage; label: string }[] = [
  { id: 'curl', label: 'curl' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
];

/** A call that runs as printed once the key and ids are filled in. */
export function codeSample(language: TSampleLanguage, baseUrl: string, operation: TOperation, body: unknown): string {
  const url = `${baseUrl}${samplePath(operation.path)}`;
  const method = operation.method.toUpperCase();
  const json = body === undefined ? undefined : JSON.stringify(body, null, 2);
  const binary = operation.path.endsWith('/pdf') || operation.path.endsWith('/zip');
  const file = operation.path.endsWith('/zip') ? 'documents.zip' : 'document.pdf';
  switch (language) {
    case 'curl':
      return [
        `curl${method === 'GET' ? '' : ` -X ${method}`} "${url}" \\`,
        `  -H "Authorization: Bearer $FORMWORK_API_KEY"${json || binary ? ' \\' : ''}`,
        ...(json ? ['  -H "Content-Type: application/json" \\', `  -d '${json.replaceAll("'", "'\\''")}'`] : []),
        ...(binary ? [`  -o "${file}"`] : []),
      ].join('\n');
    case 'javascript':
      return [
        `const response = await fetch("${url}", {`,
        `  method: "${method}",`,
        `  headers: {`,
        `    Authorization: \`Bearer \${process.env.FORMWORK_API_KEY}\`,`,
        ...(json ? ['    "Content-Type": "application/json",'] : []),
        `  },`,
        ...(json ? [`  body: JSON.stringify(${json.replaceAll('\n', '\n  ')}),`] : []),
        `});`,
        `if (!response.ok) throw new Error((await response.json()).error.message);`,
        binary
          ? `await fs.promises.writeFile("${file}", Buffer.from(await response.arrayBuffer()));`
          : method === 'DELETE'
            ? `// 204: deleted`
            : `const result = await response.json();`,
      ].join('\n');
    case 'python':
      return [
        'import os, requests',
        '',
        `response = requests.${operation.method}(`,
        `    "${url}",`,
        `    headers={"Authorization": f"Bearer {os.environ['FORMWORK_API_KEY']}"},`,
        ...(json ? [`    json=${pythonLiteral(body, 4)},`] : []),
        ')',
        'response.raise_for_status()',
        binary ? `open("${file}", "wb").write(response.content)` : method === 'DELETE' ? '# 204: deleted' : 'result = response.json()',
      ].join('\n');
  }
}

/** JSON as Python source: True/False/None instead of true/false/null. */
function pythonLiteral(value: unknown, indent: number): string {
  const json = JSON.stringify(value, null, 4) ?? 'None';
  return json
    .replace(/\b(true|false|null)\b(?=(?:[^"]*"[^"]*")*[^"]*$)/g, (m) => ({ true: 'True', false: 'False', null: 'None' })[m as 'true'])
    .replaceAll('\n', `\n${' '.repeat(indent)}`);
}
