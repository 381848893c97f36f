import { Link } from 'react-router';

export function CancelPage() {
  return (
    <section className="page page-narrow status-page">
      <h1 className="page-title">Purchase Cancelled</h1>
      <p className="page-lead">Your purchase was cancelled. If you have any questions, please contact our support team.</p>
      <Link to="/" className="btn btn-primary">
        Return to Home
      </Link>
    </section>
  );
}
