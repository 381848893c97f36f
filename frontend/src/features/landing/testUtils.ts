import type { Plan } from '@/shared/api';
import { PLANS } from '@/shared/plans/testUtils';

export { PLANS, plansHandler } from '@/shared/plans/testUtils';

export function planById(id: Plan['id']): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`no plan ${id}`);
  return plan;
}
