import { http, HttpResponse } from 'msw';
import type { Plan } from '@/shared/api';

/** The plans as the server sells them (shared/src/domain/plans.rs). */
export const PLANS: Plan[] = [
  { id: 'free', name: 'Free', priceCents: 0, currency: 'CAD', days: null, priceId: null },
  { id: 'monthly', name: '1 Month', priceCents: 3400, currency: 'CAD', days: 30, priceId: 'price_local_monthly' },
  { id: 'quarterly', name: 'Quarterly', priceCents: 6900, currency: 'CAD', days: 90, priceId: 'price_local_quarterly' },
];

export const plansHandler = (plans: Plan[] = PLANS) => http.get('/api/plans', () => HttpResponse.json(plans));
