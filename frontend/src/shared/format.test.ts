import { describe, expect, it } from 'vitest';
import { formatLocalDate } from './format';

// Midday UTC: the same calendar day in every time zone the tests may run in.
const iso = '2026-11-25T12:00:00Z';

describe('formatLocalDate', () => {
  it('writes the month out, in the order of the locale', () => {
    expect(formatLocalDate(iso, 'en-CA')).toBe('November 25, 2026');
    expect(formatLocalDate(iso, 'en-US')).toBe('November 25, 2026');
    expect(formatLocalDate(iso, 'en-GB')).toBe('25 November 2026');
    expect(formatLocalDate(iso, 'fr-CA')).toBe('25 novembre 2026');
  });

  it('uses the browser language when no locale is given, never a numeric date', () => {
    const text = formatLocalDate(iso);
    expect(text).toBe(new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }));
    expect(text).not.toMatch(/^\d+[/.-]\d+[/.-]\d+$/);
    expect(text).toContain('2026');
  });

  it("says 'N/A' for a missing or unreadable date", () => {
    expect(formatLocalDate(null)).toBe('N/A');
    expect(formatLocalDate(undefined)).toBe('N/A');
    expect(formatLocalDate('')).toBe('N/A');
    expect(formatLocalDate('not a date')).toBe('N/A');
  });
});
