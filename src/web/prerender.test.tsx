import { describe, expect, it } from 'vitest';
import { BUILD_APP_CONFIG, type TAppConfig } from '../contract/admin';
import { renderLanding } from './prerender';

/** The landing page exactly as the build and the server draw it (the same module, not a stand-in). */
const withContent: TAppConfig = {
  ...BUILD_APP_CONFIG,
  supportEmail: 'help@acme.example',
  salesEmail: 'deals@acme.example',
  publicPages: {
    figures: [
      { value: '1,204', label: 'documents made last month' },
      { value: '14', label: 'teams on board' },
    ],
    testimonials: [{ quote: 'Our offer letters go out the same day.', name: 'Ingrid Solberg', role: 'People Lead', company: 'Acme Tools' }],
    team: [{ name: 'Jonas Berg', role: 'Operations', bio: '' }],
  },
};

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the pre-rendered landing page', () => {
  it('claims nothing by default: no figures, no testimonials, no contact address', () => {
    const html = renderLanding(BUILD_APP_CONFIG);
    const shown = text(html);
    expect(shown).toContain('Generate professional documents');
    for (const invented of [
      '500+',
      '95%',
      '10,000+',
      '1000+',
      'Margaret Ellison',
      'Daniel Okafor',
      'Sofia Lindqvist',
      'Unlimited everything',
      'Custom integrations',
      '24/7',
    ]) {
      expect(shown).not.toContain(invented);
    }
    expect(html).not.toContain('formwork.app');
    expect(html).not.toContain('mailto:');
    expect(html).not.toContain('id="testimonials-title"');
    expect(html).not.toContain('data-testid="public-figures"');
    expect(shown).not.toContain('Contact Sales');
    expect(shown).not.toContain('Contact sales');
  });

  it("shows what an admin wrote, and writes to the installation's own addresses", () => {
    const html = renderLanding(withContent);
    const shown = text(html);
    expect(html).toContain('data-testid="public-figures"');
    expect(shown).toContain('1,204');
    expect(shown).toContain('documents made last month');
    expect(shown).toContain('Our offer letters go out the same day.');
    expect(shown).toContain('Ingrid Solberg');
    expect(shown).toContain('People Lead, Acme Tools');
    expect(html).toContain('href="mailto:help@acme.example?subject=Formwork%20support"');
    expect(html).toContain('href="mailto:deals@acme.example?subject=Formwork%20Enterprise%20plan"');
    expect(html).not.toContain('formwork.app');
  });

  it('draws one config after another without carrying anything over (the server draws each change in one process)', () => {
    const first = renderLanding(withContent);
    const empty = renderLanding(BUILD_APP_CONFIG);
    expect(empty).not.toContain('Ingrid Solberg');
    expect(empty).not.toContain('mailto:');
    expect(renderLanding(withContent)).toBe(first);
  });
});
