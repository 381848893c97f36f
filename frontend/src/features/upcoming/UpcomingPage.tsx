import { Link } from 'react-router';

const TITLES = {
  speaking: 'TEF CANADA - EXPRESSION ORALE',
} as const;

/** A screen whose feature is not released yet: says so plainly, never pretends. */
export function UpcomingPage({ screen }: { screen: keyof typeof TITLES }) {
  return (
    <section className="page page-narrow status-page">
      <h1 className="page-title">{TITLES[screen]}</h1>
      <p className="notice">This part of the platform is not open yet. It arrives in an upcoming release.</p>
      <Link to="/" className="btn btn-primary">
        Back to Home
      </Link>
    </section>
  );
}
