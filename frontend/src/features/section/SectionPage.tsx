import { useParams } from 'react-router';
import { CATEGORY_INFO, parseCategory } from './categories';
import { TestList } from './TestList';
import { InvalidCategory } from '@/shared/ui/InvalidCategory';
import './section.css';

/** Test selection for one paper (spec §2): the header, the explainer, then the tests. */
export function SectionPage() {
  const category = parseCategory(useParams().category);
  if (!category) {
    return <InvalidCategory />;
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
