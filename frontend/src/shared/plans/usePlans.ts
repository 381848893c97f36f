import { useEffect, useState } from 'react';
import { api, type Plan } from '@/shared/api';

export type PlansState = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; plans: Plan[] };

/** The plans as the server sells them (GET /api/plans), with a retry. */
export function usePlans(): { state: PlansState; retry: () => void } {
  const [state, setState] = useState<PlansState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    api
      .get<Plan[]>('/api/plans')
      .then((plans) => {
        if (!cancelled) setState(Array.isArray(plans) ? { kind: 'ready', plans } : { kind: 'error' });
      })
      .catch((err: unknown) => {
        console.error('Could not load the plans', err);
        if (!cancelled) setState({ kind: 'error' });
      });
    return () => {
      cancelled = true;
    };
  }, [attempt]);
  const retry = () => {
    setState({ kind: 'loading' });
    setAttempt((a) => a + 1);
  };
  return { state, retry };
}

/**
 * The name a learner reads for a plan id ('monthly' → '1 Month'), from the server's plans.
 * Null while the plans load; if they could not be loaded, the id with a capital, never the bare id.
 */
export function planName(state: PlansState, id: string): string | null {
  if (state.kind === 'loading') return null;
  const plan = state.kind === 'ready' ? state.plans.find((p) => p.id === id) : undefined;
  return plan?.name ?? id.charAt(0).toUpperCase() + id.slice(1);
}
