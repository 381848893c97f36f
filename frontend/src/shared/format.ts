/** Day, month written out, and year: never 11/25/2026, which reads differently in Canada, the US and Europe. */
const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric' };

/**
 * A date in the learner's locale with the month written out ('November 25, 2026',
 * '25 novembre 2026'), or 'N/A'. `locale` is for tests; the app passes none, so the
 * browser's language decides.
 */
export function formatLocalDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return 'N/A';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'N/A' : d.toLocaleDateString(locale, DATE_OPTIONS);
}
