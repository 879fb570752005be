import { ArrowRightIcon, BookOpenIcon, LifeBuoyIcon, MailIcon, MessageCircleIcon, MessageSquareTextIcon, PlayCircleIcon, type LucideIcon } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'wouter';
import { z } from 'zod';
import { PageHeader } from '../components/layout/page-header';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '../components/ui/accordion';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../components/ui/dialog';
import { Input } from '../components/ui/input';
import { Label } from '../components/ui/label';
import { Textarea } from '../components/ui/textarea';
import { useAuth } from '../hooks/use-auth';
import { useContactEmails } from '../hooks/use-app-config';
import { mailto } from '../lib/site';
import { WALKTHROUGH_STEPS, WalkthroughDialog } from '../features/marketing/walkthrough-dialog';

function CardIcon({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <span className="mb-2 flex size-9 items-center justify-center rounded-lg bg-primary-soft text-primary">
      <Icon className="size-[18px]" aria-hidden />
    </span>
  );
}

const GETTING_STARTED: { title: string; text: ReactNode; href: string; cta: string }[] = [
  {
    title: 'Create a format',
    text: 'Add headings, paragraphs and tables, and type {{placeholders}} where details go.',
    href: '/builder',
    cta: 'Open the builder',
  },
  { title: 'Fill in the form', text: 'Open a format from My Formats and fill the form Formwork generated for it.', href: '/formats', cta: 'Go to My Formats' },
  {
    title: 'Download your PDF',
    text: 'Every generated document is kept in Recent Documents to preview or download again.',
    href: '/documents',
    cta: 'See Recent Documents',
  },
];

const FAQ = [
  {
    q: 'What is a format?',
    a: 'A format is a reusable template: headings, paragraphs, lists, tables and images, with named placeholders such as {{client_name}} where the details of each document go.',
  },
  {
    q: 'How do placeholders become form fields?',
    a: 'Each placeholder becomes one field of the generated form. You choose its type (text, email, number, date, phone, long text or dropdown) and whether it is required.',
  },
  {
    q: 'What counts as an API call?',
    a: 'Every generated document counts as one call against your monthly limit, whether you made it in the app or through the API. Your usage is shown on the dashboard and in Settings.',
  },
  {
    q: 'If I edit a format, do old documents change?',
    a: 'No. Each document keeps the exact version of the format it was made from, so it always downloads with the same content.',
  },
  {
    q: 'Who can use the developer API?',
    a: 'API access is part of the Enterprise plan. Once your account is on it, Settings → API Access creates your keys.',
  },
];

/** The support message goes out as a mailto: link, so nothing on the server checks it. */
const ZChatMessage = z.object({ topic: z.string().trim(), message: z.string().trim().min(1) });
type TChatInput = z.input<typeof ZChatMessage>;
type TChatOutput = z.output<typeof ZChatMessage>;

function ChatDialog({ open, onOpenChange, supportEmail }: { open: boolean; onOpenChange: (open: boolean) => void; supportEmail: string }) {
  const { user } = useAuth();
  const form = useForm<TChatInput, unknown, TChatOutput>({ resolver: zodResolver(ZChatMessage), defaultValues: { topic: '', message: '' } });
  const message = useWatch({ control: form.control, name: 'message' });

  const submit = form.handleSubmit(({ topic, message }) => {
    const body = `${message}\n\n—\nAccount: ${user?.email ?? 'unknown'}`;
    window.location.assign(mailto(supportEmail, topic || 'Support request', body));
    onOpenChange(false);
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Message the support team</DialogTitle>
          <DialogDescription>Write your question below. It opens in your email app addressed to {supportEmail}.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="chat-topic">Subject</Label>
            <Input id="chat-topic" {...form.register('topic')} placeholder="e.g. Placeholder not filled in my PDF" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="chat-message">Message</Label>
            <Textarea id="chat-message" {...form.register('message')} rows={5} required placeholder="Tell us what you were doing and what happened." />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!message.trim()}>
              <MailIcon /> Open in email app
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function HelpPage() {
  const [chatOpen, setChatOpen] = useState(false);
  const { supportEmail } = useContactEmails();
  const [tutorial, setTutorial] = useState<number | null>(null);

  return (
    <>
      <PageHeader title="Help & Support" description="Guides, answers, and how to reach this installation's support." />
      <div className="grid gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <Card>
          <CardHeader>
            <CardIcon icon={BookOpenIcon} />
            <CardTitle>Getting started</CardTitle>
            <CardDescription>From a blank page to your first PDF in three steps.</CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="space-y-4">
              {GETTING_STARTED.map((s, i) => (
                <li key={s.title} className="flex gap-3">
                  <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-secondary text-xs font-semibold">{i + 1}</span>
                  <div className="min-w-0">
                    <p className="text-sm font-medium">{s.title}</p>
                    <p className="text-sm text-muted-foreground">{s.text}</p>
                    <Link
                      href={s.href}
                      className="mt-1 inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    >
                      {s.cta} <ArrowRightIcon className="size-3.5" aria-hidden />
                    </Link>
                  </div>
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardIcon icon={PlayCircleIcon} />
            <CardTitle>Video tutorials</CardTitle>
            <CardDescription>Short, step-by-step walkthroughs of each screen.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y rounded-lg border">
              {WALKTHROUGH_STEPS.map((s, i) => (
                <li key={s.title}>
                  <button
                    type="button"
                    onClick={() => setTutorial(i)}
                    className="flex w-full cursor-pointer items-center gap-3 px-4 py-3 text-left transition-colors first:rounded-t-lg last:rounded-b-lg hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <PlayCircleIcon className="size-5 shrink-0 text-primary" aria-hidden />
                    <span className="min-w-0 flex-1">
                      <span className="block text-sm font-medium">{s.title}</span>
                      <span className="block truncate text-xs text-muted-foreground">{s.body}</span>
                    </span>
                    <span className="text-xs text-muted-foreground">Step {i + 1}</span>
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardIcon icon={LifeBuoyIcon} />
            <CardTitle>Contact support</CardTitle>
            <CardDescription>Questions go to the people who run this installation.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {supportEmail ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <Button variant="outline" className="h-auto justify-start py-3" asChild>
                  <a href={mailto(supportEmail, 'Formwork support')}>
                    <MailIcon className="text-primary" />
                    <span className="min-w-0 text-left">
                      <span className="block text-sm font-medium">Email support</span>
                      <span className="block truncate text-xs font-normal text-muted-foreground">{supportEmail}</span>
                    </span>
                  </a>
                </Button>
                <Button variant="outline" className="h-auto justify-start py-3" onClick={() => setChatOpen(true)}>
                  <MessageCircleIcon className="text-primary" />
                  <span className="text-left">
                    <span className="block text-sm font-medium">Write a message</span>
                    <span className="block text-xs font-normal text-muted-foreground">Opens in your email app</span>
                  </span>
                </Button>
              </div>
            ) : (
              <p className="rounded-lg bg-muted px-3 py-2.5 text-sm text-muted-foreground" data-testid="no-support-address">
                This installation has no support address yet. Ask its administrator for help.
              </p>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardIcon icon={MessageSquareTextIcon} />
            <CardTitle>FAQ</CardTitle>
            <CardDescription>Answers to the questions we hear most.</CardDescription>
          </CardHeader>
          <CardContent>
            <Accordion type="single" collapsible>
              {FAQ.map((item) => (
                <AccordionItem key={item.q} value={item.q}>
                  <AccordionTrigger>{item.q}</AccordionTrigger>
                  <AccordionContent>{item.a}</AccordionContent>
                </AccordionItem>
              ))}
            </Accordion>
          </CardContent>
        </Card>
      </div>
      {supportEmail && <ChatDialog open={chatOpen} onOpenChange={setChatOpen} supportEmail={supportEmail} />}
      <WalkthroughDialog open={tutorial !== null} onOpenChange={(o) => !o && setTutorial(null)} initialStep={tutorial ?? 0} inApp />
    </>
  );
}
