import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { CircleAlertIcon, DownloadIcon, FileTextIcon, Loader2Icon, SparklesIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { ZDemoRenderBody } from '../../../contract/demo';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { api, readApiError } from '../../lib/api';
import { cn } from '../../lib/utils';
import { PaperSketch } from '../../components/ui/paper-sketch';

type DemoInput = z.input<typeof ZDemoRenderBody>;
type DemoOutput = z.output<typeof ZDemoRenderBody>;

const FIELDS: { name: Path<DemoInput>; label: string; type: string; placeholder: string; inputMode?: 'decimal' }[] = [
  { name: 'client_name', label: 'Full name', type: 'text', placeholder: 'Priya Raman' },
  { name: 'position', label: 'Position', type: 'text', placeholder: 'Product Designer' },
  { name: 'start_date', label: 'Start date', type: 'date', placeholder: '' },
  { name: 'salary', label: 'Salary (USD a year)', type: 'text', placeholder: '96000', inputMode: 'decimal' },
];

function inTwoWeeks(): string {
  const d = new Date(Date.now() + 14 * 24 * 3600 * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The landing page's live demo: a signed-out visitor fills four fields and gets a real PDF from
 * POST /api/demo/render (rate-limited, stores nothing), shown inline from a blob: URL.
 */
export function LiveDemo() {
  const form = useForm<DemoInput, unknown, DemoOutput>({
    resolver: zodResolver(ZDemoRenderBody),
    defaultValues: { client_name: 'Priya Raman', position: 'Product Designer', start_date: inTwoWeeks(), salary: '96000' },
  });
  const [pdf, setPdf] = useState<{ url: string; fileName: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const currentUrl = useRef<string | null>(null);

  // Revoke the last blob URL when the section unmounts.
  useEffect(
    () => () => {
      if (currentUrl.current) URL.revokeObjectURL(currentUrl.current);
    },
    [],
  );

  const render = useMutation({
    mutationFn: (body: DemoOutput) => api.blob('POST', '/api/demo/render', body),
    onSuccess: (blob, body) => {
      const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
      if (currentUrl.current) URL.revokeObjectURL(currentUrl.current);
      currentUrl.current = url;
      setPdf({ url, fileName: `Offer letter - ${body.client_name}.pdf` });
    },
    onError: (e) => {
      const problem = readApiError(e, 'The demo could not make your PDF. Please try again.');
      for (const f of FIELDS) {
        const message = problem.fields[f.name];
        if (message) form.setError(f.name, { type: 'server', message });
      }
      setError(problem.message);
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    render.mutate(values);
  });

  return (
    <div className="mt-14 grid grid-cols-[minmax(0,1fr)] overflow-hidden rounded-2xl border bg-background shadow-elevated lg:grid-cols-[minmax(0,380px)_minmax(0,1fr)]">
      <form
        noValidate
        aria-label="Live demo"
        onSubmit={(event) => void onSubmit(event)}
        className="flex flex-col gap-5 border-b p-6 sm:p-8 lg:border-r lg:border-b-0"
      >
        <div>
          <p className="text-sm font-semibold">Offer letter</p>
          <p className="mt-1 text-sm text-muted-foreground">A format with four placeholders. Change the values and generate the real PDF.</p>
        </div>
        {FIELDS.map((f) => {
          const fieldError = form.formState.errors[f.name]?.message;
          const id = `demo-${f.name}`;
          return (
            <div key={f.name} className="flex flex-col gap-2">
              <Label htmlFor={id}>{f.label}</Label>
              <Input
                id={id}
                type={f.type}
                inputMode={f.inputMode}
                placeholder={f.placeholder}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? `${id}-error` : undefined}
                className={cn(f.type === 'date' && 'block')}
                {...form.register(f.name)}
              />
              {fieldError && (
                <p id={`${id}-error`} className="text-[13px] text-destructive">
                  {fieldError}
                </p>
              )}
            </div>
          );
        })}
        {error && (
          <Alert variant="destructive">
            <CircleAlertIcon />
            <AlertDescription className="text-destructive">{error}</AlertDescription>
          </Alert>
        )}
        <Button type="submit" size="lg" disabled={render.isPending} className="mt-1">
          {render.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <SparklesIcon aria-hidden />}
          {render.isPending ? 'Generating...' : pdf ? 'Generate again' : 'Generate PDF'}
        </Button>
        <p className="text-xs text-muted-foreground">Nothing you type here is stored. No account needed.</p>
      </form>

      <div className="flex min-h-[420px] flex-col bg-muted/40 sm:min-h-[560px]">
        <div className="flex items-center justify-between gap-3 border-b bg-background/70 px-4 py-2.5">
          <span className="flex min-w-0 items-center gap-2 text-sm font-medium">
            <FileTextIcon className="size-4 shrink-0 text-destructive" aria-hidden />
            <span className="truncate">{pdf ? pdf.fileName : 'Your PDF appears here'}</span>
          </span>
          {pdf && (
            <Button variant="outline" size="sm" asChild>
              <a href={pdf.url} download={pdf.fileName}>
                <DownloadIcon /> Download
              </a>
            </Button>
          )}
        </div>
        {pdf ? (
          <>
            <iframe
              key={pdf.url}
              src={`${pdf.url}#navpanes=0&view=FitH`}
              title="Generated PDF"
              className="w-full flex-1 border-0 bg-white"
              data-testid="demo-pdf"
            />
            <p className="border-t bg-background/70 px-4 py-2 text-xs text-muted-foreground sm:hidden">
              Phones may not show PDFs inline:{' '}
              <a href={pdf.url} download={pdf.fileName} className="font-medium text-primary underline-offset-4 hover:underline">
                open the PDF
              </a>
              .
            </p>
          </>
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
            <PaperSketch className="w-40 gap-2 border p-4" />
            <p className="max-w-xs text-sm text-muted-foreground">
              {render.isPending ? 'Rendering your offer letter...' : 'Press Generate PDF to render this offer letter with your values.'}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
