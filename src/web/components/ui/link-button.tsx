import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button, type ButtonProps } from './button';

/** A link inside the app that looks like a button, with an optional icon before its text. */
export function LinkButton({
  href,
  icon: Icon,
  children,
  ...button
}: Pick<ButtonProps, 'variant' | 'size' | 'className'> & { href: string; icon?: LucideIcon; children: ReactNode }) {
  return (
    <Button {...button} asChild>
      <Link href={href}>
        {Icon && <Icon />}
        {children}
      </Link>
    </Button>
  );
}
