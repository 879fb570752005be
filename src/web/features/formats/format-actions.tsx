import { PlusIcon } from 'lucide-react';
import { LinkButton } from '../../components/ui/link-button';

// Format ids come from the server and are opaque, so they are encoded before going into a path.
export function formatEditHref(id: string): string {
  return `/builder/${encodeURIComponent(id)}`;
}

export function formatFillHref(id: string): string {
  return `/data-entry/${encodeURIComponent(id)}`;
}

/** The way out of every empty list: a first format, which documents also need. */
export function CreateFirstFormatButton({ variant }: { variant?: 'outline' }) {
  return (
    <LinkButton variant={variant} href="/builder" icon={PlusIcon}>
      Create your first format
    </LinkButton>
  );
}
