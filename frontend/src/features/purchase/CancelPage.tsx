import { Link } from 'react-router';
import './purchase.css';

/** /cancel: the learner left the checkout without paying (spec §2). */
export function CancelPage() {
  return (
    <section className="page page-narrow status-page">
      <h1 className="page-title">Purchase Cancelled</h1>
      <p className="page-lead">Your purchase was cancelled. If you have any questions, please contact our support team.</p>
      <p className="purchase-note">No payment was taken.</p>
      <div className="purchase-actions">
        <Link to="/" className="btn btn-primary">
          Return to Home
        </Link>
        <Link to="/#pricing" className="btn btn-secondary">
          See the plans
        </Link>
      </div>
    </section>
  );
}
