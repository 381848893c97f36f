import type { Plan } from '@/shared/api';

/** Days in the "month" the plans are sold by: the 1 Month plan is 30 days. */
const DAYS_PER_MONTH = 30;

/** '$34', or '$34.50' when there are cents. Prices arrive in minor units. */
export function formatPrice(cents: number): string {
  const dollars = cents / 100;
  return `$${Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2)}`;
}

/** The access a plan buys: '30 days of access', '3 months (90 days) of access'. */
export function accessLabel(days: number): string {
  const months = days / DAYS_PER_MONTH;
  if (Number.isInteger(months) && months > 1) return `${months} months (${days} days) of access`;
  return `${days} days of access`;
}

export interface Value {
  /** The plan's price per 30 days, rounded to whole dollars, in cents. */
  perMonthCents: number;
  /** What the plan saves against buying the monthly plan for the same time, in cents. */
  savingsCents: number;
}

/**
 * How a longer plan compares with the monthly one, from the plan data:
 * quarterly $69 for 90 days gives about $23 per month and saves $33 against 3 × $34.
 * Null when there is nothing to compare.
 */
export function valueAgainstMonthly(plan: Plan, monthly: Plan | undefined): Value | null {
  if (!monthly?.days || !plan.days || plan.id === monthly.id || plan.days <= monthly.days) return null;
  const periods = plan.days / monthly.days;
  const perMonthCents = Math.round(plan.priceCents / (plan.days / DAYS_PER_MONTH) / 100) * 100;
  const savingsCents = Math.round(monthly.priceCents * periods - plan.priceCents);
  return { perMonthCents, savingsCents };
}

/** Leaves the app for the payment page. An object so tests can replace it. */
export const browser = {
  go(url: string): void {
    window.location.href = url;
  },
};
