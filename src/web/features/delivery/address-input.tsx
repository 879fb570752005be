import { XIcon } from 'lucide-react';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { ZEmailAddress } from '../../../contract/mail';
import { cn } from '../../lib/utils';

export const isValidAddress = (address: string) => ZEmailAddress.safeParse(address).success;

/** Addresses typed or pasted in one go: "a@x.com, b@y.com; c@z.com" or one a line. */
export function splitAddresses(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim().replace(/^<|>$/g, ''))
    .filter(Boolean);
}

/**
 * Several addresses in one field, each a chip: Enter, comma, semicolon, space or leaving the
 * field adds what was typed; Backspace in an empty field removes the last one; a pasted list is
 * split. An address that is not valid stays, marked, so it can be seen and removed.
 */
export function AddressInput({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  placeholder,
}: {
  id: string;
  value: string[];
  onChange: (next: string[]) => void;
  invalid?: boolean;
  describedBy?: string;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);

  const add = (text: string) => {
    const found = splitAddresses(text).map((a) => a.toLowerCase());
    if (found.length === 0) return;
    onChange([...value, ...found.filter((a) => !value.includes(a))].filter((a, i, all) => all.indexOf(a) === i));
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (['Enter', ',', ';', ' ', 'Tab'].includes(event.key) && draft.trim() !== '') {
      if (event.key !== 'Tab') event.preventDefault();
      add(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (/[\s,;]/.test(text.trim())) {
      event.preventDefault();
      add(`${draft} ${text}`);
    }
  };

  return (
    // The box forwards clicks to its input, which already takes the keyboard.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      className={cn(
        'flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-input bg-background px-2 py-1.5 text-sm shadow-xs transition-[border-color,box-shadow] focus-within:border-ring focus-within:ring-2 focus-within:ring-ring',
        invalid && 'border-destructive',
      )}
      onClick={() => inputRef.current?.focus()}
    >
      {value.map((address) => {
        const ok = isValidAddress(address);
        return (
          <span
            key={address}
            className={cn(
              'inline-flex max-w-full items-center gap-1 rounded-full py-0.5 pr-1 pl-2.5 text-[13px]',
              ok ? 'bg-secondary text-secondary-foreground' : 'bg-destructive/10 text-destructive line-through decoration-destructive/50',
            )}
            title={ok ? address : `${address} is not a valid email address`}
            data-testid="address-chip"
          >
            <span className="truncate">{address}</span>
            <button
              type="button"
              className="inline-flex size-5 shrink-0 cursor-pointer items-center justify-center rounded-full hover:bg-foreground/10 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label={`Remove ${address}`}
              onClick={(e) => {
                e.stopPropagation();
                onChange(value.filter((a) => a !== address));
              }}
            >
              <XIcon className="size-3" aria-hidden />
            </button>
          </span>
        );
      })}
      <input
        ref={inputRef}
        id={id}
        type="email"
        multiple
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        autoComplete="email"
        placeholder={value.length === 0 ? placeholder : undefined}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => add(draft)}
        className="h-6 min-w-[10rem] flex-1 bg-transparent px-1 outline-none placeholder:text-muted-foreground/80"
      />
    </div>
  );
}
