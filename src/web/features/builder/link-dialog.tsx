import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { linkAt, linkMarkup, ZLinkInput, type TLinkInput } from '../../../contract/inline-markup';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';

type TextField = HTMLInputElement | HTMLTextAreaElement;

/** Where the link goes in the text: the selection, or the whole link it sits in. */
interface TLinkTarget {
  start: number;
  end: number;
  initial: TLinkInput;
  editing: boolean;
}

/**
 * A link for the words selected in `field` (Ctrl/Cmd+K or the toolbar's Link): `open` asks for
 * the words and the address, and writes `[words](address)` in their place. Inside an existing
 * link it edits that link. `dialog` must be rendered by the caller.
 */
export function useLinkDialog(field: RefObject<TextField | null>, setText: (text: string) => void): { open: () => void; dialog: ReactNode } {
  const [target, setTarget] = useState<TLinkTarget | null>(null);
  const open = () => {
    const el = field.current;
    if (!el) return;
    const value = el.value;
    let start = el.selectionStart ?? value.length;
    let end = el.selectionEnd ?? start;
    // A double-click takes a word's trailing space: the space stays outside the link.
    while (start < end && /\s/.test(value[start]!)) start++;
    while (end > start && /\s/.test(value[end - 1]!)) end--;
    const existing = linkAt(value, start, end);
    setTarget(
      existing
        ? { start: existing.start, end: existing.end, initial: { text: existing.text, address: existing.address }, editing: true }
        : { start, end, initial: { text: value.slice(start, end), address: '' }, editing: false },
    );
  };

  const close = (caret?: number) => {
    setTarget(null);
    // Back in the text, after the link when one was written.
    requestAnimationFrame(() => {
      const el = field.current;
      if (!el?.isConnected) return;
      el.focus();
      if (caret !== undefined) el.setSelectionRange(caret, caret);
    });
  };

  const save = (link: z.output<typeof ZLinkInput>) => {
    const el = field.current;
    if (!el || !target) return close();
    const markup = linkMarkup(link);
    setText(el.value.slice(0, target.start) + markup + el.value.slice(target.end));
    close(target.start + markup.length);
  };

  const dialog = (
    <Dialog open={target !== null} onOpenChange={(isOpen) => !isOpen && close()}>
      <DialogContent className="sm:max-w-md">
        {target && <LinkForm initial={target.initial} editing={target.editing} onSave={save} onCancel={() => close()} />}
      </DialogContent>
    </Dialog>
  );
  return { open, dialog };
}

function LinkForm({
  initial,
  editing,
  onSave,
  onCancel,
}: {
  initial: TLinkInput;
  editing: boolean;
  onSave: (link: z.output<typeof ZLinkInput>) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useForm<z.input<typeof ZLinkInput>, unknown, z.output<typeof ZLinkInput>>({ resolver: zodResolver(ZLinkInput), defaultValues: initial });
  const { errors } = form.formState;
  const focused = useRef(false);
  // The words are usually the selection already: the address is what is left to type.
  useEffect(() => {
    if (focused.current) return;
    focused.current = true;
    form.setFocus(initial.text ? 'address' : 'text', { shouldSelect: true });
  }, [form, initial.text]);
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(event) => {
        // The dialog sits inside the builder's own form: its submit must stay here.
        event.stopPropagation();
        void form.handleSubmit(onSave)(event);
      }}
    >
      <DialogHeader>
        <DialogTitle>{editing ? 'Edit link' : 'Add a link'}</DialogTitle>
        <DialogDescription>The words print underlined and open the address when clicked in the PDF.</DialogDescription>
      </DialogHeader>
      <Field id={`${id}-text`} label="Words to show" error={errors.text?.message}>
        <Input
          id={`${id}-text`}
          aria-invalid={errors.text ? true : undefined}
          aria-describedby={errors.text ? `${id}-text-error` : undefined}
          {...form.register('text')}
        />
      </Field>
      <Field
        id={`${id}-address`}
        label="Address"
        error={errors.address?.message}
        hint={
          <>
            https://, http:// or mailto:, or a placeholder such as <code className="font-mono text-xs">{'{{payment_link}}'}</code>
          </>
        }
      >
        <Input
          id={`${id}-address`}
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com"
          aria-invalid={errors.address ? true : undefined}
          aria-describedby={errors.address ? `${id}-address-error` : `${id}-address-hint`}
          {...form.register('address')}
        />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">{editing ? 'Update link' : 'Add link'}</Button>
      </DialogFooter>
    </form>
  );
}
