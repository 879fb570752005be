import { useId } from 'react';
import { Link } from 'wouter';
import { cn } from '../../lib/utils';

export function LogoMark({ className }: { className?: string }) {
  const gradientId = `fw-logo-${useId().replace(/:/g, '')}`;
  return (
    <svg viewBox="0 0 32 32" className={cn('size-7', className)} aria-hidden focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="oklch(0.58 0.22 280)" />
          <stop offset="1" stopColor="oklch(0.47 0.24 272)" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path d="M10 8.5h9.5l3.5 3.5v11.5a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1v-14a1 1 0 0 1 1-1Z" fill="#fff" fillOpacity=".96" />
      <path d="M12.5 14h7M12.5 17.5h7M12.5 21h4.5" stroke="oklch(0.51 0.23 277)" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ className, href = '/' }: { className?: string; href?: string }) {
  return (
    <Link
      href={href}
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-[17px] font-semibold tracking-tight text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
      aria-label="Formwork home"
    >
      <LogoMark />
      <span>Formwork</span>
    </Link>
  );
}
