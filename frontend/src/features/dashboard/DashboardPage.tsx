import { useAuth } from '@/shared/auth';
import { formatLocalDate } from '@/shared/format';
import { useProfile } from '@/shared/profile';
import './dashboard.css';

/** 'My Dashboard': the subscription card (spec §2). */
export function DashboardPage() {
  const { user } = useAuth();
  const { state } = useProfile();

  if (!user) return <p className="page error-text">You must be logged in to view your dashboard.</p>;

  let body;
  if (state.status === 'loading' || state.status === 'signed-out') {
    body = <p className="page-status">Loading your subscription…</p>;
  } else if (state.status === 'error') {
    body = <p className="error-text">Failed to load subscription.</p>;
  } else if (!state.me.registered) {
    body = <p className="notice">No subscription found.</p>;
  } else {
    const { me } = state;
    const sub = me.subscription;
    body = (
      <dl className="subscription-facts">
        <div>
          <dt>Email</dt>
          <dd>{me.email ?? user.email ?? 'N/A'}</dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>{sub.plan ?? 'Free'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`status-badge status-${sub.status}`}>{sub.label}</span>
          </dd>
        </div>
        <div>
          <dt>Expires on</dt>
          <dd>{formatLocalDate(sub.endDate)}</dd>
        </div>
        <div>
          <dt>Days left</dt>
          <dd>{sub.daysLeft ?? 'N/A'}</dd>
        </div>
      </dl>
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
