import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page page-narrow status-page">
      <h1 className="page-title">Page Not Found</h1>
      <p className="page-lead">The page you're looking for doesn't exist.</p>
      <Link to="/" className="btn btn-primary">
        Back to Home
      </Link>
    </section>
  );
}
