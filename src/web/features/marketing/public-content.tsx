import { QuoteIcon } from 'lucide-react';
import { DEFAULT_PUBLIC_PAGES, initialsOf, type TPublicFigure, type TPublicPages, type TPublicTestimonial } from '../../../contract/public-pages';
import { useAppConfig } from '../../hooks/use-app-config';
import { cn } from '../../lib/utils';

/**
 * What an admin wrote under Admin Panel → Settings → Public pages. The page carries it, so the
 * first render (and the server's drawing of the landing page) already has it.
 */
export function usePublicPages(): TPublicPages {
  return useAppConfig().data?.publicPages ?? DEFAULT_PUBLIC_PAGES;
}

/** Figures on a dark band: the landing page's benefits and the About page. */
export function FiguresList({ figures, className }: { figures: TPublicFigure[]; className?: string }) {
  return (
    <dl
      className={cn('grid grid-cols-2 gap-px overflow-hidden rounded-2xl border border-white/10 bg-white/10 sm:grid-cols-4', className)}
      data-testid="public-figures"
    >
      {figures.map((figure, i) => (
        <div key={`${i}-${figure.label}`} className="flex flex-col-reverse bg-[oklch(0.22_0.03_275)] p-6">
          <dt className="mt-1 text-sm font-medium text-white/80">{figure.label}</dt>
          <dd className="text-3xl font-semibold tracking-tight break-words tabular-nums sm:text-4xl">{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Testimonial({ testimonial }: { testimonial: TPublicTestimonial }) {
  const where = [testimonial.role, testimonial.company].filter(Boolean).join(', ');
  return (
    <figure className="flex flex-col rounded-2xl border bg-card p-7 shadow-card">
      <QuoteIcon className="size-6 text-primary/30" aria-hidden />
      <blockquote className="mt-4 flex-1 text-[15px] leading-relaxed break-words text-foreground/90">“{testimonial.quote}”</blockquote>
      <figcaption className="mt-6 flex items-center gap-3">
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-[oklch(0.9_0.05_280)] to-[oklch(0.82_0.09_270)] text-sm font-semibold text-[oklch(0.35_0.15_275)]"
          aria-hidden
        >
          {initialsOf(testimonial.name)}
        </span>
        <span className="min-w-0">
          <span className="block text-sm font-semibold break-words">{testimonial.name}</span>
          {where && <span className="block text-xs break-words text-muted-foreground">{where}</span>}
        </span>
      </figcaption>
    </figure>
  );
}

export function TestimonialsGrid({ testimonials }: { testimonials: TPublicTestimonial[] }) {
  return (
    <div className="mt-14 grid gap-5 lg:grid-cols-3" data-testid="public-testimonials">
      {testimonials.map((t, i) => (
        <Testimonial key={`${i}-${t.name}`} testimonial={t} />
      ))}
    </div>
  );
}
