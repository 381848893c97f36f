/**
 * Testimonials are content the operator supplies, each with the person's consent
 * (decisions §7): `content/testimonials.json`, described in `content/FORMAT.md`.
 * Nothing here is invented; while the file is an empty list, the landing page shows no grid.
 */

/** A testimonial as the landing page shows it. */
export interface Testimonial {
  /** The name or handle, exactly as the person agreed to be named. */
  name: string;
  /** Their words, unedited. */
  quote: string;
  /** The language of the quote. */
  lang: 'en' | 'fr';
  /** Where it was said: 'YouTube', 'E-mail to support', … */
  platform: string;
  /** A public link to where it was said, if there is one (https). */
  sourceUrl: string | null;
  /** The day the person's consent to publish it was recorded (YYYY-MM-DD). */
  consentRecordedOn: string;
}

const FIELDS = new Set(['name', 'quote', 'lang', 'platform', 'sourceUrl', 'consentRecordedOn']);
const MAX_NAME = 80;
const MAX_QUOTE = 600;

/**
 * French punctuation keeps its space on the same line (as the server does for papers, typography.rs):
 * narrow no-break space before ? ! ;, no-break space before : » and after «.
 */
export function frenchSpacing(quote: string): string {
  return quote
    .replace(/ (?=[?!;])/g, '\u202F')
    .replace(/ (?=[:»])/g, '\u00A0')
    .replace(/(?<=«) /g, '\u00A0');
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function isoDay(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value ? value : null;
}

function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return new URL(value).protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Checks the testimonials file: every entry needs a name, a quote, a platform and the
 * day consent was recorded (not in the future). Returns the valid entries and a line
 * per problem; the page shows only valid entries, and a unit test requires no problems.
 */
export function checkTestimonials(raw: unknown, today: Date = new Date()): { testimonials: Testimonial[]; problems: string[] } {
  if (!Array.isArray(raw)) return { testimonials: [], problems: ['the file must be a JSON list'] };
  const todayIso = today.toISOString().slice(0, 10);
  const testimonials: Testimonial[] = [];
  const problems: string[] = [];
  raw.forEach((entry: unknown, i) => {
    const at = `entry ${i + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    const found: string[] = [];
    for (const key of Object.keys(e)) if (!FIELDS.has(key)) found.push(`${at}: unknown field '${key}'`);
    const name = text(e.name);
    const quote = text(e.quote);
    const platform = text(e.platform);
    const consentRecordedOn = isoDay(e.consentRecordedOn);
    if (!name) found.push(`${at}: 'name' is required`);
    else if (name.length > MAX_NAME) found.push(`${at}: 'name' is longer than ${MAX_NAME} characters`);
    if (!quote) found.push(`${at}: 'quote' is required`);
    else if (quote.length > MAX_QUOTE) found.push(`${at}: 'quote' is longer than ${MAX_QUOTE} characters`);
    if (!platform) found.push(`${at}: 'platform' is required`);
    if (e.lang !== undefined && e.lang !== 'en' && e.lang !== 'fr') found.push(`${at}: 'lang' must be 'en' or 'fr'`);
    const sourceUrl = e.sourceUrl === undefined || e.sourceUrl === null ? null : httpsUrl(e.sourceUrl);
    if (e.sourceUrl !== undefined && e.sourceUrl !== null && !sourceUrl) found.push(`${at}: 'sourceUrl' must be an https link`);
    if (!consentRecordedOn) found.push(`${at}: 'consentRecordedOn' (YYYY-MM-DD) is required: no testimonial without consent`);
    else if (consentRecordedOn > todayIso) found.push(`${at}: 'consentRecordedOn' is in the future`);
    if (found.length > 0 || !name || !quote || !platform || !consentRecordedOn) {
      problems.push(...found);
      return;
    }
    const lang = e.lang === 'fr' ? 'fr' : 'en';
    testimonials.push({ name, quote: lang === 'fr' ? frenchSpacing(quote) : quote, lang, platform, sourceUrl, consentRecordedOn });
  });
  return { testimonials, problems };
}
