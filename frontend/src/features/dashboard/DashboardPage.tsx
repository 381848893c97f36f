import { Fragment, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Subscription, SubscriptionStatus } from '@/shared/api';
import { useAuth } from '@/shared/auth';
import { formatLocalDate } from '@/shared/format';
import { planName, usePlans } from '@/shared/plans';
import { useProfile } from '@/shared/profile';
import './dashboard.css';

/**
 * An e-mail address that wraps only after '@' or before a dot on a narrow screen
 * ('ana.long@' / 'example.com'), never in the middle of a word.
 */
export function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=\.)|(?<=@)/);
  return (
    <span className="email" title={email}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

/** The spec's status texts (§4), whatever label the server sends. */
export const STATUS_TEXT: Record<SubscriptionStatus, string> = {
  none: 'No Subscription',
  active: 'Active',
  expired: 'Expired',
};

/** Whole days left, rounded up and never below 0; 'N/A' without an end date. */
export function daysLeftText(daysLeft: number | null | undefined): string {
  if (daysLeft === null || daysLeft === undefined || !Number.isFinite(daysLeft)) return 'N/A';
  return String(Math.max(0, Math.ceil(daysLeft)));
}

/** A subscription the card can show, or null when the profile carries none that reads as one. */
function readable(sub: Subscription | undefined): Subscription | null {
  return sub && typeof sub === 'object' && sub.status in STATUS_TEXT ? sub : null;
}

/** 'My Dashboard': the subscription card (spec §2). */
export function DashboardPage() {
  const { user } = useAuth();
  const { state, refresh } = useProfile();
  const { state: plans } = usePlans();

  // The dashboard reads the user document when it opens (spec §7): a profile loaded earlier
  // is reloaded, one still loading is already fresh.
  const statusOnOpen = useRef(state.status);
  useEffect(() => {
    if (statusOnOpen.current === 'ready' || statusOnOpen.current === 'error') void refresh();
  }, [refresh]);

  if (!user) return <p className="page error-text">You must be logged in to view your dashboard.</p>;

  let body;
  if (state.status === 'loading' || state.status === 'signed-out') {
    body = <p className="page-status">Loading your subscription…</p>;
  } else if (state.status === 'error') {
    body = <p className="error-text">Failed to load subscription.</p>;
  } else if (!state.me.registered) {
    body = <p className="notice">No subscription found.</p>;
  } else if (!readable(state.me.subscription)) {
    body = <p className="notice">No subscription data found.</p>;
  } else {
    const { me } = state;
    const sub = me.subscription;
    const email = me.email ?? user.email;
    const plan = sub.plan ? planName(plans, sub.plan) : 'Free';
    body = (
      <>
        <dl className="subscription-facts">
          <div>
            <dt>Email</dt>
            <dd>{email ? <BreakableEmail email={email} /> : 'N/A'}</dd>
          </div>
          <div>
            <dt>Plan</dt>
            <dd aria-busy={plan === null}>{plan ?? 'Loading…'}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <span className={`status-badge status-${sub.status}`}>{STATUS_TEXT[sub.status]}</span>
            </dd>
          </div>
          <div>
            <dt>Expires on</dt>
            <dd>{formatLocalDate(sub.endDate)}</dd>
          </div>
          <div>
            <dt>Days left</dt>
            <dd>{daysLeftText(sub.daysLeft)}</dd>
          </div>
        </dl>
        {sub.status !== 'active' && (
          <p className="subscription-cta">
            <Link to="/#pricing" className="btn btn-primary btn-sm">
              See the plans
            </Link>
            <span>Unlock every mock exam in each section.</span>
          </p>
        )}
      </>
    );
  }

  return (
    <section className="page page-narrow dashboard">
      <h1 className="page-title">My Dashboard</h1>
      <article className="card subscription-card" aria-labelledby="subscription-heading">
        <h2 id="subscription-heading">Subscription</h2>
        {body}
      </article>
    </section>
  );
}
