import {
  ArrowDownIcon,
  ArrowRightIcon,
  BriefcaseIcon,
  Building2Icon,
  CodeIcon,
  FileCheck2Icon,
  FormInputIcon,
  GavelIcon,
  HeartPulseIcon,
  LayoutTemplateIcon,
  LockIcon,
  MailIcon,
  PlayIcon,
  SparklesIcon,
  TerminalIcon,
  type LucideIcon,
} from 'lucide-react';
import { lazy, memo, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Badge } from '../components/ui/badge';
import { Button } from '../components/ui/button';
import { cn, DEFERRED_LAYOUT, scrollToSection } from '../lib/utils';
import { MarketingLayout, SectionLink } from '../features/marketing/marketing-layout';
import { BuilderMock, FormMock, PdfMock } from '../features/marketing/mockups';
import { PricingSection } from '../features/marketing/pricing-section';
import { FiguresList, TestimonialsGrid, usePublicPages } from '../features/marketing/public-content';
import { FeatureTile } from '../features/marketing/feature-tile';
import { preloadableLazy } from '../lib/preloadable-lazy';

/**
 * The live demo's form (and its form library) loads after the page has been taken over: the
 * page draws it ahead of time, and its own Suspense boundary keeps that drawing until the code
 * arrives. The build loads it first (prerender.tsx).
 */
export const LiveDemo = preloadableLazy(() => import('../features/marketing/live-demo').then((m) => m.LiveDemo));
// The walkthrough opens on a click: its code loads then.
const WalkthroughDialog = lazy(() => import('../features/marketing/walkthrough-dialog').then((m) => ({ default: m.WalkthroughDialog })));
import { SIGN_UP_HREF, siteOrigin } from '../lib/site';

type TSectionHeading = { eyebrow: string; title: string; description: string };

function SectionHeading({ eyebrow, title, description, id }: TSectionHeading & { id: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold text-primary">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      <p className="mt-4 text-pretty text-muted-foreground">{description}</p>
    </div>
  );
}

/** A band of the page; one with an id is a target of the navigation's links, so it clears the sticky header. */
function LandingSection({
  id,
  titleId,
  muted = false,
  heading,
  children,
}: {
  id?: string;
  titleId: string;
  muted?: boolean;
  heading?: TSectionHeading;
  children: ReactNode;
}) {
  // Below the hero: a section off screen is neither styled nor laid out until the reader nears it,
  // which on a phone is most of the page's first rendering work. A jump to a section lays them all
  // out first (`scrollToSection`), so it lands where it aims.
  return (
    <section
      id={id}
      aria-labelledby={titleId}
      {...{ [DEFERRED_LAYOUT]: true }}
      className={cn(
        'py-20 [contain-intrinsic-size:auto_56rem] [content-visibility:auto] sm:py-28',
        id && 'scroll-mt-16 outline-none',
        muted && 'border-y bg-muted/40',
      )}
    >
      <div className="container-page">
        {heading && <SectionHeading id={titleId} {...heading} />}
        {children}
      </div>
    </section>
  );
}

function Hero({ onWatchDemo }: { onWatchDemo: () => void }) {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        className="pointer-events-none absolute inset-0 -z-10 bg-grid [mask-image:radial-gradient(ellipse_70%_60%_at_50%_0%,black,transparent)]"
        aria-hidden
      />
      <div
        className="pointer-events-none absolute -top-40 left-1/2 -z-10 h-[520px] w-[900px] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,oklch(0.75_0.14_280/0.35),transparent)]"
        aria-hidden
      />
      <div className="container-page pt-16 pb-16 text-center sm:pt-24 sm:pb-20">
        <Badge variant="outline" className="mx-auto gap-1.5 bg-background/80 px-3 py-1 text-[13px] font-medium text-muted-foreground shadow-xs backdrop-blur">
          <SparklesIcon className="size-3.5! text-primary" aria-hidden />
          Templates, forms and PDFs in one place
        </Badge>
        <h1 id="hero-title" className="mx-auto mt-6 max-w-4xl text-[40px] leading-[1.05] font-semibold tracking-tight text-balance sm:text-6xl lg:text-[68px]">
          Generate professional documents{' '}
          <span className="bg-gradient-to-r from-[oklch(0.55_0.23_283)] to-[oklch(0.5_0.2_255)] bg-clip-text text-transparent">in minutes, not hours</span>
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-[17px] text-pretty text-muted-foreground sm:text-lg">
          Build a template once with named placeholders. Formwork turns it into a form, and every form you fill becomes a polished PDF — contracts, offer
          letters, invoices and more.
        </p>
        <div className="mt-9 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <Button size="lg" asChild>
            <a href={SIGN_UP_HREF}>
              Get Started Free <ArrowRightIcon />
            </a>
          </Button>
          <Button size="lg" variant="outline" onClick={onWatchDemo}>
            <PlayIcon className="fill-current" /> Watch Demo
          </Button>
        </div>
        <div className="mt-4 flex items-center justify-center gap-1 text-sm">
          <Button variant="link" size="sm" className="text-muted-foreground hover:text-foreground" asChild>
            <SectionLink section="demo">Try Live Demo</SectionLink>
          </Button>
          <span className="text-border" aria-hidden>
            |
          </span>
          <Button variant="link" size="sm" className="text-muted-foreground hover:text-foreground" asChild>
            <SectionLink section="features">
              Learn More <ArrowDownIcon className="size-3.5!" />
            </SectionLink>
          </Button>
        </div>
        <p className="mt-6 text-xs text-muted-foreground">Free plan · No credit card required</p>

        <div className="relative mx-auto mt-14 max-w-5xl text-left sm:mt-16 md:pr-40 lg:pr-52">
          <BuilderMock className="md:[&>div:last-child]:min-h-[340px]" />
          <div className="absolute top-14 right-0 hidden w-52 rotate-[2.5deg] md:block lg:w-64">
            <PdfMock />
          </div>
          <div className="absolute -bottom-10 left-1/2 hidden w-[340px] -translate-x-[10%] lg:block">
            <FormMock />
          </div>
        </div>
      </div>
    </section>
  );
}

function DemoSection() {
  return (
    <LandingSection
      id="demo"
      titleId="demo-title"
      muted
      heading={{
        eyebrow: 'Live demo',
        title: 'One format, one form, one finished PDF',
        description:
          "Try it right here: fill the form Formwork generated from an offer letter's placeholders, and get the real PDF our renderer makes from it.",
      }}
    >
      <Suspense fallback={<div className="min-h-[28rem]" aria-busy="true" />}>
        <LiveDemo />
      </Suspense>
    </LandingSection>
  );
}

const FEATURES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: LayoutTemplateIcon,
    title: 'Drag-and-drop builder',
    text: 'Compose formats from headings, paragraphs, lists, tables and images. Reorder, align and style without touching code.',
  },
  {
    icon: SparklesIcon,
    title: 'Named placeholders',
    text: 'Write {{client_name}} once and reuse it across the document. Empty values never leak raw tags into your PDF.',
  },
  {
    icon: FormInputIcon,
    title: 'Forms that build themselves',
    text: 'Text, email, number, date, phone, long text and dropdown fields, with required checks, generated from your placeholders.',
  },
  {
    icon: FileCheck2Icon,
    title: 'Consistent, archived PDFs',
    text: 'Every document keeps the exact version of the format it was made from, so it downloads identically forever.',
  },
  {
    icon: MailIcon,
    title: 'Email and e-signature hand-off',
    text: 'Send a finished PDF on by email or to your e-signature service straight from the success screen.',
  },
  {
    icon: CodeIcon,
    title: 'Developer API',
    text: 'Enterprise teams generate documents from their own systems with an API key, rate limits and usage analytics.',
  },
];

function FeaturesSection() {
  return (
    <LandingSection
      id="features"
      titleId="features-title"
      heading={{
        eyebrow: 'Features',
        title: 'Everything between a blank page and a signed PDF',
        description: 'Formwork replaces copy-paste templates and error-prone find-and-replace with a workflow your whole team can trust.',
      }}
    >
      <div className="mt-14 grid gap-px overflow-hidden rounded-2xl border bg-border sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <FeatureTile key={feature.title} {...feature} className="bg-background p-7" iconClassName="ring-1 ring-primary/10" />
        ))}
      </div>
    </LandingSection>
  );
}

function BenefitsSection() {
  const { figures } = usePublicPages();
  return (
    <section
      id="benefits"
      aria-labelledby="benefits-title"
      className="relative scroll-mt-16 overflow-hidden bg-[oklch(0.2_0.03_275)] py-20 text-white outline-none sm:py-28"
    >
      <div
        className="pointer-events-none absolute inset-0 opacity-40 [background-image:radial-gradient(oklch(1_0_0/0.12)_1px,transparent_1px)] [background-size:22px_22px]"
        aria-hidden
      />
      <div className="container-page relative">
        <div className="grid gap-10 lg:grid-cols-2 lg:items-end">
          <div>
            <p className="text-sm font-semibold text-[oklch(0.78_0.12_280)]">Benefits</p>
            <h2 id="benefits-title" className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
              Less typing. Fewer mistakes. More time for real work.
            </h2>
          </div>
          <ul className="space-y-3 text-[15px] text-white/75">
            {[
              'Stop retyping the same names, dates and amounts into every copy.',
              'Required fields and typed inputs catch mistakes before the PDF exists.',
              'Everyone uses the approved wording, every time.',
            ].map((t) => (
              <li key={t} className="flex gap-3">
                <span className="mt-2 size-1.5 shrink-0 rounded-full bg-[oklch(0.72_0.15_280)]" aria-hidden />
                {t}
              </li>
            ))}
          </ul>
        </div>
        {figures.length > 0 && <FiguresList figures={figures} className="mt-14" />}
      </div>
    </section>
  );
}

const INDUSTRIES: { icon: LucideIcon; name: string; text: string; docs: string[] }[] = [
  {
    icon: GavelIcon,
    name: 'Legal firms',
    text: 'Engagement letters, NDAs and agreements with clause-perfect wording and the right client details.',
    docs: ['NDA', 'Engagement letter', 'Power of attorney'],
  },
  {
    icon: Building2Icon,
    name: 'Real estate',
    text: 'Lease agreements, offers and disclosures generated in the time it takes to enter the address.',
    docs: ['Lease', 'Purchase offer', 'Disclosure'],
  },
  {
    icon: BriefcaseIcon,
    name: 'HR departments',
    text: 'Offer letters, contracts and policy acknowledgements that look the same for every hire.',
    docs: ['Offer letter', 'Employment contract', 'Experience letter'],
  },
  {
    icon: HeartPulseIcon,
    name: 'Healthcare',
    text: 'Consent forms, referral letters and discharge summaries filled from a simple, typed form.',
    docs: ['Consent form', 'Referral letter', 'Discharge summary'],
  },
];

function IndustriesSection() {
  return (
    <LandingSection
      id="industries"
      titleId="industries-title"
      heading={{
        eyebrow: 'Industries',
        title: 'Built for teams that live in documents',
        description: 'From the first client letter to the thousandth contract, Formwork fits the paperwork of your industry.',
      }}
    >
      <div className="mt-14 grid gap-5 sm:grid-cols-2">
        {INDUSTRIES.map(({ icon: Icon, name, text, docs }) => (
          <div key={name} className="group rounded-2xl border bg-card p-6 shadow-card transition-shadow hover:shadow-elevated sm:p-7">
            <div className="flex items-center gap-3">
              <span className="flex size-10 items-center justify-center rounded-lg bg-secondary text-foreground">
                <Icon className="size-5" aria-hidden />
              </span>
              <h3 className="text-lg font-semibold">{name}</h3>
            </div>
            <p className="mt-4 text-sm leading-relaxed text-muted-foreground">{text}</p>
            <ul className="mt-5 flex flex-wrap gap-2" aria-label={`Typical ${name} documents`}>
              {docs.map((d) => (
                <li key={d} className="rounded-full border bg-muted/50 px-2.5 py-1 text-xs font-medium text-muted-foreground">
                  {d}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </LandingSection>
  );
}

/** Only what an admin wrote: a new installation quotes nobody. */
function TestimonialsSection() {
  const { testimonials } = usePublicPages();
  if (testimonials.length === 0) return null;
  return (
    <LandingSection
      titleId="testimonials-title"
      muted
      heading={{ eyebrow: 'Testimonials', title: 'What people say', description: 'In the words of the people who use it.' }}
    >
      <TestimonialsGrid testimonials={testimonials} />
    </LandingSection>
  );
}

const REQUEST_EXAMPLE = `POST /api/documents/generate
Content-Type: application/json
Authorization: Bearer fw_live_YOUR_API_KEY

{
  "template_id": "fmt_8c1d2e7a",
  "data": {
    "client_name": "Jane Cooper",
    "start_date": "2025-03-01",
    "fee": "4800"
  }
}`;

function responseExample(origin: string): string {
  return `HTTP/1.1 201 Created
Content-Type: application/json

{
  "id": "51f0a9c2-7d3e-4b8a-9f21-6c0d5e4a8b17",
  "status": "generated",
  "document_url": "${origin}/api/v1/documents/51f0a9c2-7d3e-4b8a-9f21-6c0d5e4a8b17/pdf"
}`;
}

function CodePanel({ title, code, label }: { title: string; code: string; label: string }) {
  return (
    <div className="overflow-hidden rounded-xl border border-white/10 bg-[oklch(0.17_0.02_275)] shadow-elevated">
      <div className="flex items-center justify-between border-b border-white/10 px-4 py-2.5">
        <span className="text-xs font-medium text-white/70">{title}</span>
        <span className="rounded bg-white/10 px-1.5 py-0.5 font-mono text-[10px] text-white/60">{label}</span>
      </div>
      <pre
        className="overflow-x-auto p-4 font-mono text-[12px] leading-relaxed sm:text-[12.5px] text-[oklch(0.9_0.02_275)]"
        tabIndex={0}
        role="region"
        aria-label={title}
      >
        {/* The response names this site's address, which differs when it is reached by another name than its public one. */}
        <code suppressHydrationWarning>{code}</code>
      </pre>
    </div>
  );
}

function ApiSection() {
  return (
    <LandingSection id="api" titleId="api-title">
      <div className="grid gap-12 lg:grid-cols-[1fr_1.45fr] lg:items-center">
        <div>
          <p className="text-sm font-semibold text-primary">For developers</p>
          <h2 id="api-title" className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Generate documents from your own apps
          </h2>
          <p className="mt-4 text-muted-foreground">
            Send a template id and the data as key/value pairs. Formwork returns a link to the finished PDF and its status. Every call counts as one document
            against your plan.
          </p>
          <ul className="mt-6 space-y-3 text-sm">
            {[
              { icon: LockIcon, text: 'API-key authentication, keys you can rotate any time' },
              { icon: TerminalIcon, text: 'Rate limiting and per-key usage analytics' },
              { icon: FileCheck2Icon, text: 'The same renderer as the app: identical PDFs' },
            ].map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3">
                <span className="flex size-7 items-center justify-center rounded-md bg-primary-soft text-primary">
                  <Icon className="size-3.5" aria-hidden />
                </span>
                {text}
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <Button asChild>
              <a href="/api/login">
                Get API Access <ArrowRightIcon />
              </a>
            </Button>
            <Button variant="outline" asChild>
              <a href="/docs/api">Read the API reference</a>
            </Button>
            <span className="w-full text-xs text-muted-foreground">API access is included in the Enterprise plan.</span>
          </div>
        </div>
        <div className="min-w-0 space-y-4">
          <CodePanel title="Request" label="HTTP" code={REQUEST_EXAMPLE} />
          <CodePanel title="Response" label="JSON" code={responseExample(siteOrigin())} />
        </div>
      </div>
    </LandingSection>
  );
}

function FinalCta({ onWatchDemo }: { onWatchDemo: () => void }) {
  return (
    <section aria-labelledby="cta-title" className="pb-20 sm:pb-28">
      <div className="container-page">
        <div className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-[oklch(0.5_0.23_277)] to-[oklch(0.42_0.2_265)] px-6 py-14 text-center text-white shadow-elevated sm:px-12">
          <div
            className="pointer-events-none absolute inset-0 opacity-30 [background-image:radial-gradient(oklch(1_0_0/0.25)_1px,transparent_1px)] [background-size:20px_20px] [mask-image:radial-gradient(ellipse_at_center,black,transparent_75%)]"
            aria-hidden
          />
          <h2 id="cta-title" className="relative text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Your next document could take two minutes
          </h2>
          <p className="relative mx-auto mt-4 max-w-xl text-white/80">
            Create a free account, build your first format, and generate a PDF before your coffee cools.
          </p>
          <div className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button size="lg" variant="inverted" asChild>
              <a href={SIGN_UP_HREF}>
                Get Started Free <ArrowRightIcon />
              </a>
            </Button>
            <Button size="lg" variant="ghost" className="text-white hover:bg-white/10 hover:text-white" onClick={onWatchDemo}>
              <PlayIcon className="fill-current" /> Watch Demo
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

/**
 * Each section is a boundary React takes over (hydrates) on its own, in its own commit, so no one
 * piece of work holds a phone's main thread for the whole page. Memoized: a change above (opening
 * the walkthrough) would otherwise reach every boundary not yet taken over and make React take them
 * all over at once before applying it.
 */
const SectionsBelowHero = memo(function SectionsBelowHero({ onWatchDemo }: { onWatchDemo: () => void }) {
  return (
    <>
      <Suspense fallback={null}>
        <DemoSection />
      </Suspense>
      <Suspense fallback={null}>
        <FeaturesSection />
      </Suspense>
      <Suspense fallback={null}>
        <BenefitsSection />
      </Suspense>
      <Suspense fallback={null}>
        <IndustriesSection />
      </Suspense>
      <Suspense fallback={null}>
        <TestimonialsSection />
      </Suspense>
      <Suspense fallback={null}>
        <PricingSection />
      </Suspense>
      <Suspense fallback={null}>
        <ApiSection />
      </Suspense>
      <Suspense fallback={null}>
        <FinalCta onWatchDemo={onWatchDemo} />
      </Suspense>
    </>
  );
});

export function LandingPage() {
  const [demoOpen, setDemoOpen] = useState(false);
  // Mounted from the first opening on, so that closing it still plays its way out.
  const [walkthroughOpened, setWalkthroughOpened] = useState(false);
  const openWalkthrough = useCallback(() => {
    setWalkthroughOpened(true);
    setDemoOpen(true);
  }, []);

  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) requestAnimationFrame(() => scrollToSection(id));
  }, []);

  return (
    <MarketingLayout>
      <Hero onWatchDemo={openWalkthrough} />
      <SectionsBelowHero onWatchDemo={openWalkthrough} />
      {walkthroughOpened && (
        <Suspense fallback={null}>
          <WalkthroughDialog open={demoOpen} onOpenChange={setDemoOpen} />
        </Suspense>
      )}
    </MarketingLayout>
  );
}
