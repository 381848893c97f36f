import { Link } from 'react-router';
import './invalid-category.css';

/** The spec's invalid-category error, with ways back (section and quiz pages). */
export function InvalidCategory() {
  return (
    <section className="page page-narrow">
      <p className="error-text" role="alert">
        Error: The category value is invalid. Please check your navigation link.
      </p>
      <div className="invalid-category-actions">
        <Link to="/#test-categories" className="btn btn-primary">
          Choose a test
        </Link>
        <Link to="/" className="btn btn-secondary">
          Back to Home
        </Link>
      </div>
    </section>
  );
}
