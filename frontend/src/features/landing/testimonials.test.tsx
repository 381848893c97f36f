import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import testimonialsFile from '@content/testimonials.json';
import { checkTestimonials, frenchSpacing } from './testimonials';
import { Testimonials } from './Testimonials';

const today = new Date('2026-03-01T12:00:00Z');
const valid = {
  name: 'Ana P.',
  quote: 'The listening papers helped me.',
  platform: 'YouTube',
  sourceUrl: 'https://www.youtube.example/watch?v=1',
  consentRecordedOn: '2026-02-14',
};

describe('content/testimonials.json', () => {
  it('is a list whose every entry has a name, a quote, a platform and a recorded consent', () => {
    const { testimonials, problems } = checkTestimonials(testimonialsFile);
    expect(problems).toEqual([]);
    expect(testimonials).toHaveLength((testimonialsFile as unknown[]).length);
  });
});

describe('checkTestimonials', () => {
  it('accepts a complete entry and defaults the language to English', () => {
    expect(checkTestimonials([valid], today)).toEqual({ testimonials: [{ ...valid, lang: 'en' }], problems: [] });
    expect(checkTestimonials([{ ...valid, lang: 'fr', sourceUrl: undefined }], today).testimonials[0]).toMatchObject({ lang: 'fr', sourceUrl: null });
  });

  it('refuses an entry without consent, and never shows it', () => {
    const withoutConsent: Record<string, unknown> = { ...valid };
    delete withoutConsent.consentRecordedOn;
    const { testimonials, problems } = checkTestimonials([withoutConsent], today);
    expect(testimonials).toEqual([]);
    expect(problems).toEqual(["entry 1: 'consentRecordedOn' (YYYY-MM-DD) is required: no testimonial without consent"]);
  });

  it.each([
    ['name', { name: ' ' }, "entry 1: 'name' is required"],
    ['quote', { quote: '' }, "entry 1: 'quote' is required"],
    ['platform', { platform: null }, "entry 1: 'platform' is required"],
    ['a consent date that is not a day', { consentRecordedOn: '2026-02-30' }, "entry 1: 'consentRecordedOn' (YYYY-MM-DD) is required: no testimonial without consent"],
    ['a consent date in the future', { consentRecordedOn: '2026-03-02' }, "entry 1: 'consentRecordedOn' is in the future"],
    ['a source that is not https', { sourceUrl: 'http://example.com' }, "entry 1: 'sourceUrl' must be an https link"],
    ['an unknown language', { lang: 'de' }, "entry 1: 'lang' must be 'en' or 'fr'"],
    ['a misspelt field', { likes: 214 }, "entry 1: unknown field 'likes'"],
  ])('refuses %s', (_what, change, problem) => {
    const { testimonials, problems } = checkTestimonials([{ ...valid, ...change }], today);
    expect(testimonials).toEqual([]);
    expect(problems).toEqual([problem]);
  });

  it('keeps French punctuation on the line of its word', () => {
    expect(frenchSpacing('Vraiment ? Oui : « génial » ; merci !')).toBe('Vraiment\u202F? Oui\u00A0: «\u00A0génial\u00A0»\u202F; merci\u202F!');
    const [fr] = checkTestimonials([{ ...valid, lang: 'fr', quote: 'Merci !' }], today).testimonials;
    expect(fr?.quote).toBe('Merci\u202F!');
    expect(checkTestimonials([{ ...valid, quote: 'Really !' }], today).testimonials[0]?.quote).toBe('Really !');
  });

  it('refuses a file that is not a list', () => {
    expect(checkTestimonials({ name: 'x' }, today).problems).toEqual(['the file must be a JSON list']);
  });
});

describe('Testimonials', () => {
  it('shows nothing while there are none', () => {
    const { container } = render(<Testimonials items={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows each quote with the name and where it was said', () => {
    const { testimonials } = checkTestimonials([valid, { ...valid, name: '@lucia', quote: 'Merci !', lang: 'fr', sourceUrl: null, platform: 'E-mail to support' }], today);
    render(<Testimonials items={testimonials} />);
    expect(screen.getByRole('heading', { name: 'What candidates say' })).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByText('The listening papers helped me.')).toBeInTheDocument();
    expect(within(first).getByText('Ana P.')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'YouTube' })).toHaveAttribute('href', valid.sourceUrl);
    expect(within(second).getByText(/^Merci\s!$/).closest('blockquote')).toHaveAttribute('lang', 'fr');
    expect(within(second).getByText('E-mail to support')).toBeInTheDocument();
    expect(within(second).queryByRole('link')).not.toBeInTheDocument();
  });
});
