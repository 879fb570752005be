import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Logo } from '../../components/layout/logo';

/** The frame of the pages reached from an email or the sign-in page: the logo, one narrow column. */
export function AuthShell({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col px-4 py-8 sm:px-8">
      <header>
        <Logo />
      </header>
      <main id="main" className="mx-auto flex w-full max-w-[420px] flex-1 flex-col justify-center py-10">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1.5 text-sm text-muted-foreground">{description}</p>}
        <div className="mt-6">{children}</div>
        <p className="mt-8 text-center text-sm text-muted-foreground">
          <Link
            href="/login"
            className="rounded-sm font-medium text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            ← Back to sign in
          </Link>
        </p>
      </main>
    </div>
  );
}
