import { z } from 'zod';

/**
 * What the landing and About pages say about the installation's operator: figures, testimonials
 * and the team. Each is the operator's own claim, so none exists until an admin writes it; an
 * empty list hides its section.
 */
export const PUBLIC_PAGES_SETTING = 'public.pages';

const text = (max: number, required: string) =>
  z
    .string()
    .trim()
    .min(1, required)
    .max(max, `Keep it under ${max + 1} characters.`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Keep it under ${max + 1} characters.`);

export const ZPublicFigure = z.object({
  value: text(16, 'Enter the figure, such as 1,200.'),
  label: text(60, 'Say what it counts.'),
});
export type TPublicFigure = z.infer<typeof ZPublicFigure>;

export const ZPublicTestimonial = z.object({
  quote: text(600, 'Enter what they said.'),
  name: text(80, 'Enter who said it.'),
  role: optionalText(80),
  company: optionalText(80),
});
export type TPublicTestimonial = z.infer<typeof ZPublicTestimonial>;

export const ZPublicTeamMember = z.object({
  name: text(80, 'Enter their name.'),
  role: optionalText(80),
  bio: optionalText(300),
});

export const MAX_PUBLIC_FIGURES = 8;
export const MAX_PUBLIC_TESTIMONIALS = 6;
export const MAX_PUBLIC_TEAM = 12;

export const ZPublicPages = z.object({
  figures: z.array(ZPublicFigure).max(MAX_PUBLIC_FIGURES, `Show at most ${MAX_PUBLIC_FIGURES} figures.`),
  testimonials: z.array(ZPublicTestimonial).max(MAX_PUBLIC_TESTIMONIALS, `Show at most ${MAX_PUBLIC_TESTIMONIALS} testimonials.`),
  team: z.array(ZPublicTeamMember).max(MAX_PUBLIC_TEAM, `Show at most ${MAX_PUBLIC_TEAM} people.`),
});
export type TPublicPages = z.infer<typeof ZPublicPages>;

/** A new installation claims nothing about customers, numbers or people. */
export const DEFAULT_PUBLIC_PAGES: TPublicPages = { figures: [], testimonials: [], team: [] };

/** "Ada Lovelace" → "AL": the avatar of a person without a photo. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}
