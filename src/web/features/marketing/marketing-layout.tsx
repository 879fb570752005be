import { MenuIcon } from 'lucide-react';
import { type ComponentProps, type MouseEvent, type ReactNode, useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { Logo } from '../../components/layout/logo';
import { Button, buttonVariants } from '../../components/ui/button';
import { useContactEmails } from '../../hooks/use-app-config';
import { useAuth } from '../../hooks/use-auth';
import { mailto } from '../../lib/site';
import { cn, scrollToSection } from '../../lib/utils';

/** Scrolls on the landing page; elsewhere goes to the landing page at that section. */
function useSectionNav() {
  const [location, navigate] = useLocation();
  return (id: string) => {
    if (location === '/') {
      history.replaceState(null, '', `#${id}`);
      scrollToSection(id);
    } else {
      navigate(`/#${id}`);
    }
  };
}

/**
 * A link to a section of the landing page. It is a real `/#id` link, so it works while the page the
 * server drew is still waiting for its script; once the app runs, it scrolls smoothly instead.
 */
export function SectionLink({ section, onClick, children, ...props }: Omit<ComponentProps<'a'>, 'href'> & { section: string }) {
  const goTo = useSectionNav();
  return (
    <a
      href={`/#${section}`}
      {...props}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        goTo(section);
      }}
    >
      {children}
    </a>
  );
}

function initialOf(user: { firstName?: string | null; email: string }): string {
  const first = user.firstName?.trim();
  return ((first ? first[0] : user.email.trim()[0]) ?? '?').toUpperCase();
}

/**
 * The header's way in: Sign In for a visitor, the way back to the app for a signed-in person (the
 * API reference and About are read by both). Until the session is known the place stays empty, at
 * its size; the landing page alone shows Sign In at once, as the server sends it only to visitors.
 */
function AccountAction() {
  const { user, isLoading } = useAuth();
  const [location] = useLocation();
  if (user) {
    return (
      <Button size="sm" variant="outline" asChild className="gap-2 pl-1.5" data-testid="open-app">
        <Link href="/">
          <span
            className="flex size-6 items-center justify-center rounded-full bg-gradient-to-br from-[oklch(0.62_0.19_285)] to-[oklch(0.5_0.23_268)] text-xs font-semibold text-white"
            aria-hidden
          >
            {initialOf(user)}
          </span>
          Dashboard
        </Link>
      </Button>
    );
  }
  if (isLoading && location !== '/') return <span className="inline-block h-8 w-[4.5rem]" aria-hidden />;
  return (
    <Button size="sm" asChild>
      <a href="/api/login">Sign In</a>
    </Button>
  );
}

const LANDING_SECTIONS = [
  ['features', 'Features'],
  ['pricing', 'Pricing'],
  ['api', 'Documentation'],
] as const;

const SITE_MENU_ITEM =
  'flex cursor-pointer items-center rounded-md px-2 py-1.5 text-sm outline-none select-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The site's links on a narrow screen: a disclosure (`details`), which opens on the first tap even
 * while the page the server drew is still waiting for its script, and whose links are real links.
 * Once the app runs, choosing a link, tapping outside or pressing Escape closes it.
 */
function SiteMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (menu.current) menu.current.open = false;
  };
  useEffect(() => {
    const outside = (event: PointerEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) close();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.current?.open) return;
      close();
      menu.current.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, []);
  return (
    <details ref={menu} className="relative md:hidden">
      <summary aria-label="Open menu" className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'list-none [&::-webkit-details-marker]:hidden')}>
        <MenuIcon className="size-5" />
      </summary>
      <nav
        aria-label="Site menu"
        className="absolute top-full right-0 z-50 mt-2 flex w-52 flex-col rounded-lg border bg-popover p-1 text-popover-foreground shadow-elevated"
      >
        {LANDING_SECTIONS.map(([section, label]) => (
          <SectionLink key={section} section={section} className={SITE_MENU_ITEM} onClick={close}>
            {label}
          </SectionLink>
        ))}
        <Link href="/about" className={SITE_MENU_ITEM} onClick={close}>
          About
        </Link>
      </nav>
    </details>
  );
}

export function MarketingHeader() {
  const [location] = useLocation();
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
      <div className="container-page flex h-16 items-center gap-4">
        <Logo />
        <nav aria-label="Site" className="ml-6 hidden items-center gap-1 md:flex">
          <Button variant="ghost" size="sm" className="text-muted-foreground hover:text-foreground" asChild>
            <SectionLink section="features">Features</SectionLink>
          </Button>
          <Button variant="ghost" size="sm" className="text-muted-foreground hover:text-foreground" asChild>
            <SectionLink section="pricing">Pricing</SectionLink>
          </Button>
          <Button variant="ghost" size="sm" className="text-muted-foreground hover:text-foreground" asChild>
            <SectionLink section="api">Documentation</SectionLink>
          </Button>
          <Button variant="ghost" size="sm" className={location === '/about' ? 'text-foreground' : 'text-muted-foreground hover:text-foreground'} asChild>
            <Link href="/about" aria-current={location === '/about' ? 'page' : undefined}>
              About
            </Link>
          </Button>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <SiteMenu />
          <AccountAction />
        </div>
      </div>
    </header>
  );
}

export function MarketingFooter() {
  const { supportEmail, salesEmail } = useContactEmails();
  const { user } = useAuth();
  const linkClass =
    'rounded-sm text-sm text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none cursor-pointer text-left';
  return (
    <footer className="border-t bg-muted/40">
      <div className="container-page grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Logo />
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">
            Reusable templates, auto-generated forms and pixel-perfect PDFs for teams that produce documents every day.
          </p>
        </div>
        <div>
          <h2 className="text-sm font-semibold">Product</h2>
          <ul className="mt-3 space-y-2.5">
            <li>
              <SectionLink section="features" className={linkClass}>
                Features
              </SectionLink>
            </li>
            <li>
              <SectionLink section="pricing" className={linkClass}>
                Pricing
              </SectionLink>
            </li>
            <li>
              <Link href="/docs/api" className={linkClass}>
                API reference
              </Link>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">Company</h2>
          <ul className="mt-3 space-y-2.5">
            <li>
              <Link href="/about" className={linkClass}>
                About
              </Link>
            </li>
            {salesEmail && (
              <li>
                <a href={mailto(salesEmail, 'Formwork Enterprise')} className={linkClass}>
                  Contact sales
                </a>
              </li>
            )}
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold">Support</h2>
          <ul className="mt-3 space-y-2.5">
            {supportEmail && (
              <li>
                <a href={mailto(supportEmail, 'Formwork support')} className={linkClass}>
                  {supportEmail}
                </a>
              </li>
            )}
            <li>
              {user ? (
                <Link href="/" className={linkClass}>
                  Your dashboard
                </Link>
              ) : (
                <a href="/api/login" className={linkClass}>
                  Sign in
                </a>
              )}
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t">
        <div className="container-page py-6 text-xs text-muted-foreground">
          <p>© {new Date().getFullYear()} Formwork. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}

export function MarketingLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow-elevated focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <MarketingHeader />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <MarketingFooter />
    </div>
  );
}
