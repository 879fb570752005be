import { useQuery } from '@tanstack/react-query';
import { memo, startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { ERROR_CODE_MEANING, HTTP_STATUS_OF, type TErrorCode } from '../../../contract/errors';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TEST_EVENT } from '../../../contract/webhooks';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { Badge } from '../../components/ui/badge';
import { Label } from '../../components/ui/label';
import { LoadError } from '../../components/ui/load-error';
import { NativeSelect } from '../../components/ui/native-select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { api } from '../../lib/api';
import { systemKeys } from '../../lib/query-keys';
import { siteOrigin } from '../../lib/site';
import { cn } from '../../lib/utils';
import {
  codeSample,
  fieldsOf,
  operationsByTag,
  refName,
  sampleBody,
  SAMPLE_LANGUAGES,
  type TOpenApiDocument,
  type TOperation,
  type TSampleLanguage,
} from './openapi-model';
import { CodeBlock, Method, Prose, Section } from './reference-parts';
import { ReferenceSkeleton } from './reference-skeleton';

/**
 * Sections far below the screen are neither laid out nor painted until scrolled near (their size
 * guessed until then): the reference is long, and a phone would otherwise lay it all out at once.
 */
const OFFSCREEN = '[content-visibility:auto] [contain-intrinsic-size:auto_40rem]';

const WEBHOOK_EVENT_MEANING: [string, string][] = [
  ['document.created', 'A document was made one at a time, in the app or by the API.'],
  ['batch.completed', 'A batch finished and made every one of its documents.'],
  ['batch.failed', 'A batch finished with rows that could not be made; `data.failed` says how many.'],
  ['signature_request.sent', 'Signers were emailed their links (when a request is sent, and when the next in the order’s turn comes); `data` is the request.'],
  ['signature_request.viewed', 'A signer opened their link for the first time.'],
  ['signature_request.signed', 'A signer signed; `data.signers` says who has.'],
  ['signature_request.completed', 'Everyone signed; the sealed PDF is at `/api/v1/signature-requests/{id}/pdf`.'],
  ['signature_request.declined', 'A signer declined; the request has ended, and `declineReason` says why.'],
  ['signature_request.expired', 'The request reached its expiry before everyone signed.'],
  [WEBHOOK_TEST_EVENT, 'Sent by “Send test event” in Settings.'],
];

const VERIFY_SAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// body: the raw request body as a string; header: the ${WEBHOOK_SIGNATURE_HEADER} header
function isFromFormwork(body, header, secret) {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=")));
  const expected = createHmac("sha256", secret).update(\`\${parts.t}.\${body}\`).digest("hex");
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
  return fresh && parts.v1?.length === expected.length &&
    timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
}`;

/** Text with `code` spans, in paragraphs split by blank lines, as the document's descriptions are written. */
const ERROR_COLUMNS: readonly DataTableColumn[] = ['Code', 'Status', 'Meaning'].map((header) => ({ header, className: 'px-3 py-2 font-medium' }));

function FieldTable({ caption, rows }: { caption: string; rows: { name: string; type: string; required: boolean; description?: string; depth?: number }[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="overflow-x-auto rounded-lg border" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full text-sm">
        <caption className="border-b bg-muted/50 px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase">{caption}</caption>
        <tbody className="divide-y">
          {rows.map((row) => (
            <tr key={row.name} className="align-top">
              <th scope="row" className={cn('w-2/5 px-3 py-2 text-left font-normal', row.depth ? 'pl-7' : '')}>
                <code className="font-mono text-[0.8125rem] font-medium break-words text-foreground">{row.name}</code>
                {row.required && <span className="ml-1.5 text-xs text-destructive">required</span>}
                <div className="mt-0.5 text-xs break-words text-muted-foreground">{row.type}</div>
              </th>
              <td className="px-3 py-2">
                <Prose text={row.description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// Memoised: each step of the progressive drawing below then draws only its new sections.
const OperationSection = memo(function OperationSection({
  doc,
  operation,
  language,
  onLanguage,
}: {
  doc: TOpenApiDocument;
  operation: TOperation;
  language: TSampleLanguage;
  onLanguage: (l: TSampleLanguage) => void;
}) {
  const body = sampleBody(doc, operation);
  const parameters = (operation.parameters ?? []).map((p) => ({
    name: p.in === 'header' ? p.name.replace(/(^|-)\w/g, (m) => m.toUpperCase()) : p.name,
    type: `${p.in}${p.schema?.type ? ` · ${String(p.schema.type)}` : ''}`,
    required: p.required ?? false,
    description: p.description ?? p.schema?.description,
  }));
  const requestSchema = operation.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(operation.responses);
  return (
    <section id={operation.id} aria-labelledby={`${operation.id}-title`} className={cn('scroll-mt-24 border-t py-10 first:border-t-0', OFFSCREEN)}>
      <div className="grid gap-6 2xl:grid-cols-[minmax(0,1fr)_minmax(0,30rem)] 2xl:gap-8">
        <div className="min-w-0 space-y-5">
          <div>
            <h3 id={`${operation.id}-title`} className="text-lg font-semibold">
              {operation.summary}
            </h3>
            <p className="mt-2 flex min-w-0 items-center gap-2">
              <Method method={operation.method} />
              <code className="font-mono text-sm break-all">{operation.path}</code>
            </p>
          </div>
          <Prose text={operation.description} />
          <FieldTable caption="Parameters" rows={parameters} />
          {requestSchema && <FieldTable caption="Request body (JSON)" rows={fieldsOf(doc, requestSchema)} />}
          <div className="rounded-lg border">
            <h4 className="border-b bg-muted/50 px-3 py-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Responses</h4>
            <ul className="divide-y text-sm">
              {responses.map(([status, response]) => {
                const schema = response.content?.['application/json']?.schema;
                const name = refName(schema);
                return (
                  <li key={status} className="flex gap-3 px-3 py-2">
                    <Badge variant={status.startsWith('2') ? 'success' : 'outline'} className="h-6 shrink-0 font-mono">
                      {status}
                    </Badge>
                    <div className="min-w-0">
                      <Prose text={response.description} />
                      {name && (
                        <a href={`#schema-${name}`} className="font-mono text-[0.8125rem] text-primary hover:underline">
                          {name}
                        </a>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
        </div>
        <div className="min-w-0 2xl:sticky 2xl:top-24 2xl:self-start">
          <Tabs value={language} onValueChange={(v) => onLanguage(v as TSampleLanguage)}>
            <TabsList aria-label={`Sample for ${operation.summary ?? operation.path} in`}>
              {SAMPLE_LANGUAGES.map((l) => (
                <TabsTrigger key={l.id} value={l.id}>
                  {l.label}
                </TabsTrigger>
              ))}
            </TabsList>
            {/* Only the shown language's sample is written out: the others wait for their tab. */}
            {SAMPLE_LANGUAGES.map((l) => (
              <TabsContent key={l.id} value={l.id} className="mt-3">
                {l.id === language && <CodeBlock code={codeSample(l.id, siteOrigin(), operation, body)} label={`${l.label} sample`} />}
              </TabsContent>
            ))}
          </Tabs>
        </div>
      </div>
    </section>
  );
});

const SchemaSection = memo(function SchemaSection({ doc, name }: { doc: TOpenApiDocument; name: string }) {
  const rows = fieldsOf(doc, { $ref: `#/components/schemas/${name}` });
  return (
    <section
      id={`schema-${name}`}
      aria-labelledby={`schema-${name}-title`}
      className="scroll-mt-24 [contain-intrinsic-size:auto_16rem] [content-visibility:auto]"
    >
      <h3 id={`schema-${name}-title`} className="mb-3 font-mono text-base font-semibold">
        {name}
      </h3>
      <FieldTable caption="Fields" rows={rows} />
    </section>
  );
});

function Nav({ groups, schemas }: { groups: TGroups; schemas: string[] }) {
  return (
    <nav aria-label="API reference" className="space-y-5 text-sm">
      <ul className="space-y-1">
        {[
          ['#introduction', 'Introduction'],
          ['#errors', 'Errors'],
          ['#webhooks', 'Webhooks'],
        ].map(([href, label]) => (
          <li key={href}>
            <a href={href} className="block rounded px-2 py-1 text-muted-foreground hover:bg-muted hover:text-foreground">
              {label}
            </a>
          </li>
        ))}
      </ul>
      {groups.map((group) => (
        <div key={group.tag}>
          <p className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{group.tag}</p>
          <ul className="mt-1 space-y-0.5">
            {group.operations.map((o) => (
              <li key={o.id}>
                <a href={`#${o.id}`} className="flex items-center gap-2 rounded px-2 py-1 text-muted-foreground hover:bg-muted hover:text-foreground">
                  <span className="w-12 shrink-0 font-mono text-[0.6875rem] font-semibold uppercase">{o.method}</span>
                  <span className="truncate">{o.summary}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <div>
        <p className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Objects</p>
        <ul className="mt-1 space-y-0.5">
          {schemas.map((name) => (
            <li key={name}>
              <a
                href={`#schema-${name}`}
                className="block truncate rounded px-2 py-1 font-mono text-xs text-muted-foreground hover:bg-muted hover:text-foreground"
              >
                {name}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

/** The reference for the public API, built from the OpenAPI document the server serves. */
type TGroups = ReturnType<typeof operationsByTag>;

/** On narrow screens the side navigation becomes a select that jumps to a section. */
function JumpTo({ groups }: { groups: TGroups }) {
  return (
    <div className="grid gap-1.5 lg:hidden">
      <Label htmlFor="api-reference-jump">Jump to</Label>
      <NativeSelect
        id="api-reference-jump"
        defaultValue=""
        onChange={(e) => {
          if (e.target.value) window.location.hash = e.target.value;
        }}
      >
        <option value="" disabled>
          Choose a section
        </option>
        <option value="introduction">Introduction</option>
        <option value="errors">Errors</option>
        <option value="webhooks">Webhooks</option>
        {groups.map((group) => (
          <optgroup key={group.tag} label={group.tag}>
            {group.operations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.summary}
              </option>
            ))}
          </optgroup>
        ))}
        <option value="objects">Objects</option>
      </NativeSelect>
    </div>
  );
}

/** Base URL, the machine-readable document, and a first call to try. */
function IntroductionSection({ doc, groups }: { doc: TOpenApiDocument; groups: TGroups }) {
  const quickStart = groups.flatMap((g) => g.operations).find((o) => o.method === 'post' && o.path === '/api/v1/documents');
  return (
    <Section id="introduction" title="Introduction">
      <Prose text={doc.info.description} className="text-base" />
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div className="rounded-lg border p-3">
          <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Base URL</dt>
          <dd className="mt-1 font-mono break-all">{siteOrigin()}</dd>
        </div>
        <div className="rounded-lg border p-3">
          <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Machine-readable</dt>
          <dd className="mt-1">
            <a className="font-mono text-primary hover:underline" href="/api/openapi.json">
              /api/openapi.json
            </a>{' '}
            <span className="text-muted-foreground">(OpenAPI 3.1)</span>
          </dd>
        </div>
      </dl>
      {quickStart && (
        <div className="space-y-2">
          <h3 className="font-semibold">Your first document</h3>
          <p className="text-sm text-muted-foreground">
            Create a key in Settings → API Access, put it in <code className="font-mono">FORMWORK_API_KEY</code>, and use a format id from{' '}
            <a href="#get-api-v1-formats" className="text-primary underline underline-offset-2">
              List formats
            </a>
            :
          </p>
          <CodeBlock code={codeSample('curl', siteOrigin(), quickStart, sampleBody(doc, quickStart))} label="curl sample" />
        </div>
      )}
    </Section>
  );
}

/** The one error body, and every code a client can meet with its status. */
function ErrorsSection() {
  return (
    <Section id="errors" title="Errors">
      <p className="text-sm text-muted-foreground">
        Every error has the same body: <code className="font-mono">{'{ "error": { "code", "message", "fields"? } }'}</code>. Branch on{' '}
        <code className="font-mono">code</code>; show <code className="font-mono">message</code> to people.
      </p>
      <div className="overflow-x-auto rounded-lg border" role="region" aria-label="Error codes" tabIndex={0}>
        <DataTable className="w-full text-sm" caption="Error codes" columns={ERROR_COLUMNS}>
          {(Object.keys(ERROR_CODE_MEANING) as TErrorCode[])
            .filter((code) => code !== 'csrf_rejected' && code !== 'two_factor_required')
            .map((code) => (
              <tr key={code} className="align-top">
                <th scope="row" className="px-3 py-2 text-left font-mono text-[0.8125rem] font-medium">
                  {code}
                </th>
                <td className="px-3 py-2 font-mono tabular-nums">{HTTP_STATUS_OF[code]}</td>
                <td className="px-3 py-2 text-muted-foreground">
                  <Prose text={ERROR_CODE_MEANING[code]} />
                </td>
              </tr>
            ))}
        </DataTable>
      </div>
    </Section>
  );
}

/** The events, the retry schedule, and how a receiver checks the signature. */
function WebhooksSection() {
  return (
    <Section id="webhooks" title="Webhooks">
      <Prose
        text={`Register endpoints in Settings → API Access. Formwork posts JSON to them: \`{ "id", "type", "createdAt", "data" }\`, where \`data\` is the Document or Batch. A delivery that does not get a 2xx answer within 10 seconds is retried after 1 min, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h; if the last attempt fails too, the endpoint is turned off until you turn it on again. A retry carries the same \`id\`, so a receiver can ignore what it has already handled.`}
      />
      <div className="overflow-x-auto rounded-lg border" role="region" aria-label="Webhook events" tabIndex={0}>
        <table className="w-full text-sm">
          <caption className="sr-only">Webhook events</caption>
          <tbody className="divide-y">
            {WEBHOOK_EVENT_MEANING.map(([event, meaning]) => (
              <tr key={event}>
                <th scope="row" className="w-2/5 px-3 py-2 text-left font-mono text-[0.8125rem] font-medium">
                  {event}
                </th>
                <td className="px-3 py-2">
                  <Prose text={meaning} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Prose
        text={`Each request carries \`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<signature>\`: the hex HMAC-SHA256 of \`t\`, a dot and the raw body, keyed with the endpoint's signing secret. Check it before trusting the body, and refuse timestamps more than five minutes old:`}
      />
      <CodeBlock code={VERIFY_SAMPLE} label="Node.js signature check" />
    </Section>
  );
}

/**
 * Sections (calls, then objects) drawn at first; the rest follow a few at a time, each step in a
 * commit of its own, short enough that a phone's main thread is never held for long.
 */
const FIRST_SECTIONS = 4;
const SECTIONS_PER_STEP = 2;

export function ApiReference() {
  const [language, setLanguage] = useState<TSampleLanguage>('curl');
  const openapi = useQuery({ queryKey: systemKeys.openapi, queryFn: () => api.get<TOpenApiDocument>('/api/openapi.json'), staleTime: Infinity });
  // Drawing the whole reference is long work: as a deferred value it is done in slices between
  // which the browser stays responsive, with the skeleton showing meanwhile.
  const doc = useDeferredValue(openapi.data);
  const groups = useMemo(() => (doc ? operationsByTag(doc) : []), [doc]);
  // Objects clients receive; request shapes are described with their calls.
  const schemas = useMemo(
    () => Object.keys(doc?.components?.schemas ?? {}).filter((name) => !name.endsWith('Input') && !/^(Create|Generate)Request|^Create/.test(name)),
    [doc],
  );
  const operationCount = groups.reduce((n, group) => n + group.operations.length, 0);
  // A link to a section further down needs the whole reference at once to land there.
  const [shown, setShown] = useState(() => (typeof window !== 'undefined' && window.location.hash.length > 1 ? Infinity : FIRST_SECTIONS));
  const complete = shown >= operationCount + schemas.length;
  useEffect(() => {
    if (!doc || complete) return;
    const next = setTimeout(() => startTransition(() => setShown((n) => n + SECTIONS_PER_STEP)), 0);
    return () => clearTimeout(next);
  }, [doc, complete, shown]);
  if (openapi.error) return <LoadError error={openapi.error} fallback="Could not load the API reference." />;
  if (!doc) return <ReferenceSkeleton />;
  // Where each group's calls start in the order they are drawn.
  const starts = groups.map((_, i) => groups.slice(0, i).reduce((n, group) => n + group.operations.length, 0));
  return (
    <div className="lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-10">
      <aside className="hidden lg:block">
        <div className="sticky top-24 max-h-[calc(100dvh-7rem)] overflow-y-auto pb-8">
          <Nav groups={groups} schemas={schemas} />
        </div>
      </aside>
      <div className={cn('min-w-0', !complete && 'min-h-[200vh]')}>
        <JumpTo groups={groups} />
        <IntroductionSection doc={doc} groups={groups} />
        <ErrorsSection />
        {groups.map(
          (group, i) =>
            starts[i]! < shown && (
              <Section key={group.tag} id={`tag-${group.tag.toLowerCase()}`} title={group.tag}>
                <Prose text={group.description} className="text-base" />
                <div>
                  {group.operations.slice(0, shown - starts[i]!).map((operation) => (
                    <OperationSection key={operation.id} doc={doc} operation={operation} language={language} onLanguage={setLanguage} />
                  ))}
                </div>
              </Section>
            ),
        )}
        {shown >= operationCount && (
          <>
            <WebhooksSection />
            <Section id="objects" title="Objects">
              <div className="space-y-8">
                {schemas.slice(0, shown - operationCount).map((name) => (
                  <SchemaSection key={name} doc={doc} name={name} />
                ))}
              </div>
            </Section>
          </>
        )}
      </div>
    </div>
  );
}
