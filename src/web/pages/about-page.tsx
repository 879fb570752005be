import { ArrowRightIcon, EyeIcon, HeartHandshakeIcon, ShieldCheckIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../components/ui/button';
import { useDocumentTitle } from '../hooks/use-document-title';
import { FeatureTile } from '../features/marketing/feature-tile';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { FiguresList, usePublicPages } from '../features/marketing/public-content';
import { useContactEmails } from '../hooks/use-app-config';
import { mailto } from '../lib/site';
import { initialsOf } from '../../contract/public-pages';

/** What the software does, true of every installation; the operator adds figures and people in the Admin Panel. */
const VALUES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: EyeIcon,
    title: 'Templates and forms',
    text: 'A format is written once with named placeholders; Formwork turns them into a form with typed, checked fields.',
  },
  {
    icon: ShieldCheckIcon,
    title: 'PDFs that stay the same',
    text: 'Every document keeps the version of the format it was made from, so it downloads with the same content later.',
  },
  {
    icon: HeartHandshakeIcon,
    title: 'Runs where you choose',
    text: 'Formwork is self-hostable: the organisation running this site keeps its templates and documents on its own servers.',
  },
];

export function AboutPage() {
  useDocumentTitle('About');
  const { figures, team } = usePublicPages();
  const { supportEmail, salesEmail } = useContactEmails();
  return (
    <MarketingLayout>
      <section aria-labelledby="about-title" className="relative overflow-hidden">
        <div
          className="pointer-events-none absolute inset-0 -z-10 bg-grid [mask-image:radial-gradient(ellipse_70%_70%_at_50%_0%,black,transparent)]"
          aria-hidden
        />
        <div className="container-page py-20 text-center sm:py-28">
          <p className="text-sm font-semibold text-primary">About Formwork</p>
          <h1 id="about-title" className="mx-auto mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Documents from templates, without the copy-paste
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
            Formwork is document-generation software. Write a template once with placeholders for names, dates and amounts; fill the form it makes, and get a
            PDF — one at a time, from a spreadsheet, or through the API.
          </p>
        </div>
      </section>

      <section aria-labelledby="values-title" className="border-y bg-muted/40 py-20 sm:py-24">
        <div className="container-page">
          <h2 id="values-title" className="text-center text-3xl font-semibold tracking-tight">
            What it does
          </h2>
          <div className="mt-12 grid gap-5 md:grid-cols-3">
            {VALUES.map((value) => (
              <FeatureTile key={value.title} {...value} className="rounded-2xl border bg-card p-7 shadow-card" />
            ))}
          </div>
        </div>
      </section>

      {figures.length > 0 && (
        <section aria-label="In figures" className="bg-[oklch(0.2_0.03_275)] py-14 text-white">
          <div className="container-page">
            <FiguresList figures={figures} />
          </div>
        </section>
      )}

      {team.length > 0 && (
        <section aria-labelledby="team-title" className="py-20 sm:py-24">
          <div className="container-page">
            <h2 id="team-title" className="text-center text-3xl font-semibold tracking-tight">
              The team
            </h2>
            <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4" data-testid="public-team">
              {team.map((p, i) => (
                <li key={`${i}-${p.name}`} className="rounded-2xl border bg-card p-6 text-center shadow-card">
                  <span
                    className="mx-auto flex size-16 items-center justify-center rounded-full bg-gradient-to-br from-[oklch(0.9_0.05_280)] to-[oklch(0.8_0.1_268)] text-lg font-semibold text-[oklch(0.35_0.15_275)]"
                    aria-hidden
                  >
                    {initialsOf(p.name)}
                  </span>
                  <p className="mt-4 font-semibold break-words">{p.name}</p>
                  {p.role && <p className="text-sm break-words text-primary">{p.role}</p>}
                  {p.bio && <p className="mt-3 text-sm leading-relaxed break-words text-muted-foreground">{p.bio}</p>}
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}

      {(supportEmail || salesEmail) && (
        <section aria-labelledby="contact-title" className={team.length > 0 ? 'pb-16' : 'py-16'}>
          <div className="container-page text-center">
            <h2 id="contact-title" className="text-2xl font-semibold tracking-tight">
              Contact
            </h2>
            <ul className="mt-4 flex flex-col items-center justify-center gap-2 text-sm sm:flex-row sm:gap-6">
              {supportEmail && (
                <li>
                  Support:{' '}
                  <a className="font-medium text-primary underline-offset-4 hover:underline" href={mailto(supportEmail, 'Formwork support')}>
                    {supportEmail}
                  </a>
                </li>
              )}
              {salesEmail && (
                <li>
                  Sales:{' '}
                  <a className="font-medium text-primary underline-offset-4 hover:underline" href={mailto(salesEmail, 'Formwork plans')}>
                    {salesEmail}
                  </a>
                </li>
              )}
            </ul>
          </div>
        </section>
      )}

      <section aria-labelledby="about-cta-title" className="py-16 sm:py-20">
        <div className="container-page">
          <div className="rounded-3xl border bg-muted/50 px-6 py-12 text-center sm:px-12">
            <h2 id="about-cta-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              Ready to see it for yourself?
            </h2>
            <p className="mx-auto mt-3 max-w-lg text-muted-foreground">Sign in to build your first format. The Free plan needs no credit card.</p>
            <div className="mt-7 flex flex-col justify-center gap-3 sm:flex-row">
              <Button size="lg" asChild>
                <a href="/api/login">
                  Sign In to Get Started <ArrowRightIcon />
                </a>
              </Button>
              <Button size="lg" variant="outline" asChild>
                <Link href="/#pricing">See pricing</Link>
              </Button>
            </div>
          </div>
        </div>
      </section>
    </MarketingLayout>
  );
}
