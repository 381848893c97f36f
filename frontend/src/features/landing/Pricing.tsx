import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, type CheckoutRequest, type CheckoutResponse, type Plan } from '@/shared/api';
import { useAuth } from '@/shared/auth';
import { useConfig } from '@/shared/config';
import { formatLocalDate } from '@/shared/format';
import { usePlans } from '@/shared/plans';
import { useProfile } from '@/shared/profile';
import { describeSkill } from '@/shared/releases';
import { AlreadySubscribedModal } from '@/shared/ui/AlreadySubscribedModal';
import { CalendarIcon, CheckIcon, LockIcon, RefundIcon, ShieldIcon } from './icons';
import { accessLabel, browser, formatPrice, valueAgainstMonthly } from './pricing';

const FREE_FEATURES = [
  '1 Reading exam',
  '1 Listening exam',
  describeSkill('writing', '1 Writing exam with 3 AI corrections'),
  describeSkill('speaking', '1 Speaking exam with 3 AI corrections'),
  'No credit card',
];

const PAID_FEATURES = [
  'All mock exams in each section (10 per section)',
  describeSkill('writing', 'Unlimited AI writing corrections'),
  describeSkill('speaking', 'Unlimited AI speaking practice'),
  'Results Tracker with your CLB per skill',
  'One-time payment, no renewal',
];

const PLAN_BLURB: Record<Plan['id'], string> = {
  free: 'Take one full mock exam in every skill and see where you stand today.',
  monthly: 'A focused month of practice before your exam date.',
  quarterly: 'Time to build real progress across all four skills.',
};

export const CHECKOUT_PATH = '/api/stripe/create-checkout-session';

/** The spec's alert for a plan without a usable price id (§5, §8). */
export const PRICE_NOT_CONFIGURED = 'Stripe Price ID is not configured. Please check the .env file.';
/** What the checkout alert says when the server gave no text of its own. */
export const CHECKOUT_FAILED = 'Failed to create checkout session.';

/** A price id that is missing or still the example's placeholder ('price_your_monthly_id'). */
export function priceIdConfigured(priceId: string | null): priceId is string {
  return !!priceId && !priceId.includes('your_');
}

/** 'Error during checkout: {message}': the server's own error text, else the generic one. */
export function checkoutErrorText(err: unknown): string {
  const message = err instanceof ApiError && err.fromServer ? err.message : CHECKOUT_FAILED;
  return `Error during checkout: ${message}`;
}

function PlanSkeleton() {
  return (
    <li className="plan-card plan-skeleton" aria-hidden="true">
      <span className="skeleton-line skeleton-title" />
      <span className="skeleton-line skeleton-price" />
      <span className="skeleton-line" />
      <span className="skeleton-line" />
      <span className="skeleton-line skeleton-short" />
      <span className="skeleton-line" />
      <span className="skeleton-button" />
    </li>
  );
}

interface PlanCardProps {
  plan: Plan;
  monthly: Plan | undefined;
  subscribed: boolean;
  busy: boolean;
  onChoose: (plan: Plan) => void;
}

function PlanCard({ plan, monthly, subscribed, busy, onChoose }: PlanCardProps) {
  const free = plan.id === 'free';
  const value = valueAgainstMonthly(plan, monthly);
  const featured = value !== null && value.savingsCents > 0;
  const features = free ? FREE_FEATURES : PAID_FEATURES;
  const disabled = !free && subscribed;
  const label = free ? 'Try Free' : subscribed ? 'Subscribed' : `Get ${plan.name}`;
  const titleId = `plan-${plan.id}-title`;

  let button: ReactNode = label;
  if (busy) {
    button = (
      <>
        <span className="btn-spinner" aria-hidden="true" />
        Opening secure checkout…
      </>
    );
  }

  return (
    <li className={`plan-card${featured ? ' plan-featured' : ''}${free ? ' plan-free' : ''}`} aria-labelledby={titleId}>
      {featured && <span className="plan-badge">Best value</span>}
      <h3 id={titleId} className="plan-name">
        {plan.name}
      </h3>
      <p className="plan-blurb">{PLAN_BLURB[plan.id]}</p>
      <p className="plan-price">
        <span className="plan-amount">{formatPrice(plan.priceCents)}</span>
        {!free && <span className="plan-currency">{plan.currency}</span>}
      </p>
      <p className="plan-period">{plan.days ? accessLabel(plan.days) : 'Free forever, no card required'}</p>
      {value && (
        <p className="plan-value">
          <span className="plan-per-month">{`about ${formatPrice(value.perMonthCents)} per month`}</span>
          {value.savingsCents > 0 && (
            <span className="plan-save">{`saves ${formatPrice(value.savingsCents)} against monthly`}</span>
          )}
        </p>
      )}
      <ul className="plan-features">
        {features.map((f) => (
          <li key={f}>
            <CheckIcon size={18} className="plan-check" />
            {f}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={`btn btn-block ${featured ? 'btn-accent' : free ? 'btn-secondary' : 'btn-primary'} plan-button`}
        disabled={disabled}
        aria-busy={busy || undefined}
        onClick={() => onChoose(plan)}
      >
        {button}
      </button>
    </li>
  );
}

const TRUST = [
  {
    icon: <LockIcon size={22} />,
    title: 'Secure card payment',
    text: 'Checkout runs on Stripe, our card payment provider, over an encrypted connection.',
  },
  {
    icon: <ShieldIcon size={22} />,
    title: 'We never store card data',
    text: 'Your card details go straight to the payment provider and never reach our servers.',
  },
  {
    icon: <CalendarIcon size={22} />,
    title: 'One-time payment',
    text: 'No subscription to cancel, no automatic renewal, no surprise charges.',
  },
  {
    icon: <RefundIcon size={22} />,
    title: '7-day refund',
    text: 'Not the right fit? Write to us within 7 days for a full refund.',
  },
];

/** The plans, from the server (GET /api/plans), with the buy buttons and the trust panel. */
export function Pricing() {
  const { isLoggedIn, login, user } = useAuth();
  const { me, refresh } = useProfile();
  const { supportEmail } = useConfig();
  const navigate = useNavigate();
  const { state, retry } = usePlans();
  const [busyPlan, setBusyPlan] = useState<Plan['id'] | null>(null);
  const [alreadySubscribed, setAlreadySubscribed] = useState(false);
  const busyRef = useRef(false);

  const subscription = isLoggedIn ? me?.subscription : undefined;
  const subscribed = subscription?.status === 'active';

  const idle = () => {
    busyRef.current = false;
    setBusyPlan(null);
  };

  // Back from the payment page: a page restored from the browser's cache must not stay busy.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) idle();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const checkout = async (plan: Plan) => {
    if (busyRef.current) return;
    if (!priceIdConfigured(plan.priceId)) {
      window.alert(PRICE_NOT_CONFIGURED);
      return;
    }
    // The profile's uid and e-mail; the token's while the profile is still loading (the same sub).
    const userId = me?.uid ?? user?.uid;
    if (!userId) return;
    const body: CheckoutRequest = { priceId: plan.priceId, userId, email: me?.email ?? user?.email ?? null };
    busyRef.current = true;
    setBusyPlan(plan.id);
    try {
      const data = await api.post<Partial<CheckoutResponse> | null>(CHECKOUT_PATH, body);
      if (typeof data?.url !== 'string' || !data.url) throw new Error('No checkout address');
      browser.go(data.url);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // The server knows better than the profile shown (a purchase in another tab, a click
        // before the profile loaded): reload it, then say so with its days left and end date.
        await refresh();
        idle();
        setAlreadySubscribed(true);
        return;
      }
      idle();
      window.alert(checkoutErrorText(err));
    }
  };

  const choose = (plan: Plan) => {
    if (plan.id === 'free') {
      if (isLoggedIn) void navigate('/section/reading');
      else void login('/section/reading');
      return;
    }
    if (!isLoggedIn) {
      void login();
      return;
    }
    if (subscribed) {
      setAlreadySubscribed(true);
      return;
    }
    void checkout(plan);
  };

  const plans = state.kind === 'ready' ? state.plans : [];
  const monthly = plans.find((p) => p.id === 'monthly');

  return (
    <section id="pricing" className="landing-section pricing" aria-labelledby="pricing-title">
      <div className="landing-container">
        <header className="section-header">
          <p className="section-eyebrow">Pricing</p>
          <h2 id="pricing-title" className="section-title">
            Simple prices. One payment. No renewal.
          </h2>
          <p className="section-lead">
            Start free, then unlock every mock exam when you are ready. You pay once, in Canadian dollars, for a fixed
            period of access. We never charge your card again.
          </p>
        </header>

        {subscribed && (
          <p className="notice subscribed-line" role="status">
            You are currently subscribed. Your plan ends on{' '}
            <span className="subscribed-date">{formatLocalDate(subscription.endDate)}</span>.
          </p>
        )}

        {state.kind === 'error' ? (
          <div className="notice notice-error plans-error" role="alert">
            <p>We couldn&rsquo;t load the plans just now. Please check your connection and try again.</p>
            <button type="button" className="btn btn-secondary btn-sm" onClick={retry}>
              Try again
            </button>
          </div>
        ) : (
          <div aria-busy={state.kind === 'loading'}>
            {state.kind === 'loading' && (
              <p className="sr-only" role="status">
                Loading plans…
              </p>
            )}
            <ul className="plan-grid">
              {state.kind === 'loading'
                ? [0, 1, 2].map((i) => <PlanSkeleton key={i} />)
                : plans.map((plan) => (
                    <PlanCard
                      key={plan.id}
                      plan={plan}
                      monthly={monthly}
                      subscribed={subscribed}
                      busy={busyPlan === plan.id}
                      onChoose={choose}
                    />
                  ))}
            </ul>
          </div>
        )}

        <p className="refund-line">
          <RefundIcon size={20} className="refund-icon" />
          <span>
            Changed your mind? Get a full refund if you write to{' '}
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a> within 7 days, no questions asked.
          </span>
        </p>

        <aside className="trust-panel" aria-label="Payment and refunds">
          <ul>
            {TRUST.map((t) => (
              <li key={t.title}>
                <span className="trust-icon">{t.icon}</span>
                <span>
                  <strong>{t.title}</strong>
                  <span className="trust-text">{t.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
      {alreadySubscribed && (
        <AlreadySubscribedModal
          daysLeft={me?.subscription.daysLeft ?? null}
          endDate={me?.subscription.endDate ?? null}
          onClose={() => setAlreadySubscribed(false)}
        />
      )}
    </section>
  );
}
