import { ArrowRightIcon, EyeIcon, HeartHandshakeIcon, ShieldCheckIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../components/ui/button';
import { useDocumentTitle } from '../hooks/use-document-title';
import { MarketingLayout } from '../features/marketing/marketing-layout';

const VALUES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: EyeIcon,
    title: 'Clarity over cleverness',
    text: 'A document tool should be obvious. If a feature needs a manual, we have not finished designing it.',
  },
  {
    icon: ShieldCheckIcon,
    title: 'Documents you can trust',
    text: 'A PDF made today downloads identically next year. We keep every version it was made from, and we never change it behind your back.',
  },
  {
    icon: HeartHandshakeIcon,
    title: 'Your data stays yours',
    text: 'Self-host Formwork or use our cloud. Either way your templates and client data are private, exportable and never sold.',
  },
];

const IMPACT = [
  { value: '500+', label: 'businesses' },
  { value: '10,000+', label: 'documents every month' },
  { value: '95%', label: 'less time per document' },
  { value: '2 min', label: 'to the first format' },
];

const TEAM = [
  { name: 'Amara Nwosu', role: 'Co-founder & CEO', bio: 'Ran operations at a 40-lawyer firm and counted the hours lost to templates.' },
  { name: 'Lukas Brenner', role: 'Co-founder & CTO', bio: 'Built document pipelines that render millions of PDFs a month.' },
  { name: 'Mei Tanaka', role: 'Head of Design', bio: 'Designs tools for people who would rather be doing their real job.' },
  { name: 'Rafael Ortiz', role: 'Head of Customer Success', bio: 'Has onboarded hundreds of teams, from solo agents to hospital groups.' },
];

export function AboutPage() {
  useDocumentTitle('About');
  return (
    <MarketingLayout>
      <section aria-labelledby="about-title" className="relative overflow-hidden">
        <div className="pointer-events-none absolute inset-0 -z-10 bg-grid [mask-image:radial-gradient(ellipse_70%_70%_at_50%_0%,black,transparent)]" aria-hidden />
        <div className="container-page py-20 text-center sm:py-28">
          <p className="text-sm font-semibold text-primary">About Formwork</p>
          <h1 id="about-title" className="mx-auto mt-3 max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            We are on a mission to end copy-paste paperwork
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
            Every day, skilled people spend hours retyping names, dates and amounts into documents. Formwork gives that time
            back: write a template once, and let a form and a renderer do the rest — accurately, consistently and in seconds.
          </p>
        </div>
      </section>

      <section aria-labelledby="values-title" className="border-y bg-muted/40 py-20 sm:py-24">
        <div className="container-page">
          <h2 id="values-title" className="text-center text-3xl font-semibold tracking-tight">
            What we value
          </h2>
          <div className="mt-12 grid gap-5 md:grid-cols-3">
            {VALUES.map(({ icon: Icon, title, text }) => (
              <div key={title} className="rounded-2xl border bg-card p-7 shadow-card">
                <span className="flex size-10 items-center justify-center rounded-lg bg-primary-soft text-primary">
                  <Icon className="size-5" aria-hidden />
                </span>
                <h3 className="mt-5 font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section aria-label="Our impact" className="bg-[oklch(0.2_0.03_275)] py-14 text-white">
        <dl className="container-page grid grid-cols-2 gap-8 text-center lg:grid-cols-4">
          {IMPACT.map((s) => (
            <div key={s.label}>
              <dt className="sr-only">{s.label}</dt>
              <dd>
                <p className="text-3xl font-semibold tracking-tight sm:text-4xl">{s.value}</p>
                <p className="mt-1 text-sm text-white/65">{s.label}</p>
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="team-title" className="py-20 sm:py-24">
        <div className="container-page">
          <div className="mx-auto max-w-2xl text-center">
            <h2 id="team-title" className="text-3xl font-semibold tracking-tight">
              The team behind Formwork
            </h2>
            <p className="mt-4 text-muted-foreground">
              Legal operations, document engineering and design experts who have lived the problem we are solving.
            </p>
          </div>
          <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {TEAM.map((p) => (
              <li key={p.name} className="rounded-2xl border bg-card p-6 text-center shadow-card">
                <span
                  className="mx-auto flex size-16 items-center justify-center rounded-full bg-gradient-to-br from-[oklch(0.9_0.05_280)] to-[oklch(0.8_0.1_268)] text-lg font-semibold text-[oklch(0.35_0.15_275)]"
                  aria-hidden
                >
                  {p.name
                    .split(' ')
                    .map((n) => n[0])
                    .join('')}
                </span>
                <p className="mt-4 font-semibold">{p.name}</p>
                <p className="text-sm text-primary">{p.role}</p>
                <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{p.bio}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="about-cta-title" className="pb-20 sm:pb-24">
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
