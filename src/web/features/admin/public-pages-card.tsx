import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowDownIcon, ArrowUpIcon, GlobeIcon, PlusIcon, RotateCcwIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm, type Control, type FieldPath, type UseFormRegister, type FieldErrors } from 'react-hook-form';
import {
  DEFAULT_PUBLIC_PAGES,
  MAX_PUBLIC_FIGURES,
  MAX_PUBLIC_TEAM,
  MAX_PUBLIC_TESTIMONIALS,
  ZPublicPages,
  type TPublicPages,
} from '../../../contract/public-pages';
import { IconButton } from '../../components/ui/icon-button';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { QueryState } from '../../components/query-state';
import { Skeleton } from '../../components/ui/skeleton';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError, readApiError } from '../../lib/api';
import { Field, SpinnerLabel } from './admin-ui';
import { useAdminPublicPages, useSavePublicPages } from './api';

type TListName = keyof TPublicPages;
type TItemField = { key: string; label: string; placeholder: string; optional?: boolean; multiline?: boolean; wide?: boolean };

/** Each list: what one item is called, its fields, and the most the pages show. */
const LISTS: Record<TListName, { title: string; description: string; item: string; max: number; fields: TItemField[]; blank: () => Record<string, string> }> = {
  figures: {
    title: 'Figures',
    description: 'Numbers shown on the landing and About pages, such as customers or documents made. Only what is true of you.',
    item: 'figure',
    max: MAX_PUBLIC_FIGURES,
    fields: [
      { key: 'value', label: 'Figure', placeholder: '1,200' },
      { key: 'label', label: 'What it counts', placeholder: 'documents made last month' },
    ],
    blank: () => ({ value: '', label: '' }),
  },
  testimonials: {
    title: 'Testimonials',
    description: 'Quotes on the landing page, from people who agreed to be named.',
    item: 'testimonial',
    max: MAX_PUBLIC_TESTIMONIALS,
    fields: [
      { key: 'quote', label: 'Quote', placeholder: 'What they said, in their words', multiline: true, wide: true },
      { key: 'name', label: 'Name', placeholder: 'Full name' },
      { key: 'role', label: 'Role', placeholder: 'Head of Operations', optional: true },
      { key: 'company', label: 'Company', placeholder: 'Company name', optional: true },
    ],
    blank: () => ({ quote: '', name: '', role: '', company: '' }),
  },
  team: {
    title: 'Team',
    description: 'The people behind this installation, on the About page.',
    item: 'person',
    max: MAX_PUBLIC_TEAM,
    fields: [
      { key: 'name', label: 'Name', placeholder: 'Full name' },
      { key: 'role', label: 'Role', placeholder: 'Founder', optional: true },
      { key: 'bio', label: 'Bio', placeholder: 'One or two sentences', optional: true, multiline: true, wide: true },
    ],
    blank: () => ({ name: '', role: '', bio: '' }),
  },
};

type TListProps = {
  name: TListName;
  control: Control<TPublicPages>;
  register: UseFormRegister<TPublicPages>;
  errors: FieldErrors<TPublicPages>;
};

function ListEditor({ name, control, register, errors }: TListProps) {
  const list = LISTS[name];
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const headingId = `public-${name}-title`;
  const listErrors = errors[name] as unknown as (Record<string, { message?: string } | undefined> | undefined)[] & {
    message?: string;
    root?: { message?: string };
  };
  const listMessage = listErrors?.message ?? listErrors?.root?.message;

  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid={`public-${name}`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h4 id={headingId} className="text-base font-semibold">
            {list.title}{' '}
            <span className="text-sm font-normal text-muted-foreground">
              ({fields.length} of {list.max})
            </span>
          </h4>
          <p className="text-sm text-muted-foreground">{list.description}</p>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={() => append(list.blank() as never)} disabled={fields.length >= list.max}>
          <PlusIcon aria-hidden /> Add {list.item}
        </Button>
      </div>
      {listMessage && (
        <p className="text-[13px] text-destructive" role="alert">
          {listMessage}
        </p>
      )}
      {fields.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-5 text-center text-sm text-muted-foreground">
          None: the pages show no {list.title.toLowerCase()} section.
        </p>
      ) : (
        <ol className="space-y-3">
          {fields.map((field, index) => {
            const label = `${list.item[0]!.toUpperCase()}${list.item.slice(1)} ${index + 1}`;
            return (
              <li key={field.id}>
                <fieldset className="rounded-lg border p-4">
                  <div className="flex items-center justify-between gap-2">
                    <legend className="text-sm font-medium">{label}</legend>
                    <div className="flex gap-1">
                      <IconButton
                        icon={ArrowUpIcon}
                        label={`Move ${list.item} ${index + 1} up`}
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                      />
                      <IconButton
                        icon={ArrowDownIcon}
                        label={`Move ${list.item} ${index + 1} down`}
                        disabled={index === fields.length - 1}
                        onClick={() => move(index, index + 1)}
                      />
                      <IconButton icon={Trash2Icon} label={`Remove ${list.item} ${index + 1}`} tone="danger" onClick={() => remove(index)} />
                    </div>
                  </div>
                  <div className="mt-3 grid gap-4 sm:grid-cols-2">
                    {list.fields.map((f) => {
                      const id = `public-${name}-${index}-${f.key}`;
                      const path = `${name}.${index}.${f.key}` as FieldPath<TPublicPages>;
                      const error = listErrors?.[index]?.[f.key]?.message;
                      const common = {
                        id,
                        placeholder: f.placeholder,
                        'aria-invalid': error ? true : undefined,
                        'aria-describedby': error ? `${id}-error` : undefined,
                        ...register(path),
                      };
                      return (
                        <div key={f.key} className={f.wide ? 'sm:col-span-2' : undefined}>
                          <Field id={id} label={f.label} optional={f.optional} error={error}>
                            {f.multiline ? <Textarea rows={3} className="min-h-20" {...common} /> : <Input autoComplete="off" {...common} />}
                          </Field>
                        </div>
                      );
                    })}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function PublicPagesForm({ saved }: { saved: TPublicPages }) {
  const save = useSavePublicPages();
  const [formError, setFormError] = useState<string | null>(null);
  const { control, register, handleSubmit, reset, setError, formState } = useForm<TPublicPages>({
    resolver: zodResolver(ZPublicPages),
    defaultValues: saved,
  });
  useEffect(() => reset(saved), [saved, reset]);

  const onSubmit = handleSubmit((pages) => {
    setFormError(null);
    save.mutate(pages, {
      onSuccess: () => toast({ title: 'Public pages saved', description: 'The landing and About pages show the new content.' }),
      onError: (err) => {
        if (isUnauthorizedError(err)) return;
        const read = readApiError(err, 'Could not save the public pages. Please try again.');
        const fields = Object.entries(read.fields);
        for (const [path, message] of fields) setError(path as FieldPath<TPublicPages>, { message });
        if (fields.length === 0) setFormError(read.message);
        toast({ variant: 'destructive', title: 'Failed to save the public pages', description: read.message });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Public pages" className="space-y-8">
      {(Object.keys(LISTS) as TListName[]).map((name) => (
        <ListEditor key={name} name={name} control={control} register={register} errors={formState.errors} />
      ))}
      {formError && (
        <p className="text-[13px] text-destructive" role="alert">
          {formError}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 border-t pt-4">
        <Button type="button" variant="outline" onClick={() => reset(saved)} disabled={!formState.isDirty || save.isPending}>
          <RotateCcwIcon aria-hidden /> Discard changes
        </Button>
        <Button type="submit" disabled={!formState.isDirty || save.isPending}>
          {save.isPending ? (
            <SpinnerLabel pending idle="Save public pages" busy="Saving..." />
          ) : (
            <>
              <SaveIcon aria-hidden /> Save public pages
            </>
          )}
        </Button>
      </div>
    </form>
  );
}

/** Admin Panel → Settings → Public pages: what the landing and About pages claim, and nothing by default. */
export function PublicPagesCard() {
  const pages = useAdminPublicPages();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <GlobeIcon className="size-4 text-primary" aria-hidden /> Public pages
        </CardTitle>
        <CardDescription>
          Figures, testimonials and the team shown on the landing and About pages. A list left empty hides its section; the support and sales links follow the
          support.email and sales.email settings below.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={pages}
          loading={
            <div className="space-y-3" aria-hidden>
              <Skeleton className="h-24" />
              <Skeleton className="h-24" />
            </div>
          }
          errorText="Could not load the public pages."
        >
          <PublicPagesForm saved={pages.data ?? DEFAULT_PUBLIC_PAGES} />
        </QueryState>
      </CardContent>
    </Card>
  );
}
