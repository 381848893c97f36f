import { describe, expect, it } from 'vitest';
import { accessLabel, formatPrice, valueAgainstMonthly } from './pricing';
import { planById } from './testUtils';

const monthly = planById('monthly');
const quarterly = planById('quarterly');

describe('pricing figures', () => {
  it('formats whole and fractional prices', () => {
    expect(formatPrice(0)).toBe('$0');
    expect(formatPrice(3400)).toBe('$34');
    expect(formatPrice(2350)).toBe('$23.50');
  });

  it('describes the access a plan buys', () => {
    expect(accessLabel(30)).toBe('30 days of access');
    expect(accessLabel(90)).toBe('3 months (90 days) of access');
  });

  it('computes about $23 per month and $33 saved for the quarterly plan', () => {
    expect(valueAgainstMonthly(quarterly, monthly)).toEqual({ perMonthCents: 2300, savingsCents: 3300 });
  });

  it('follows the plan data rather than fixed figures', () => {
    expect(valueAgainstMonthly({ ...quarterly, priceCents: 7500 }, monthly)).toEqual({
      perMonthCents: 2500,
      savingsCents: 2700,
    });
  });

  it('has nothing to compare for the monthly plan itself or without a monthly plan', () => {
    expect(valueAgainstMonthly(monthly, monthly)).toBeNull();
    expect(valueAgainstMonthly(quarterly, undefined)).toBeNull();
  });
});
