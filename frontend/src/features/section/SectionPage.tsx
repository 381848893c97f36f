import { Link, useParams } from 'react-router';
import { CATEGORY_INFO, parseCategory } from './categories';
import { TestList } from './TestList';
import './section.css';

/** Test selection for one paper (spec §2): the header, the explainer, then the tests. */
export function SectionPage() {
  const category = parseCategory(useParams().category);
  if (!category) {
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
  const info = CATEGORY_INFO[category];
  return (
    <section className="page section-page">
      <span className="pill">{info.label} Section</span>
      <h1 className="page-title">{info.title}</h1>
      <p className="page-lead">{info.lead}</p>
      <aside className="card section-explainer" aria-label="About this paper">
        <h2>About this paper</h2>
        <ul>
          {info.explainer.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </aside>
      <TestList key={category} category={category} />
    </section>
  );
}
