import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '@/shared/api';
import { hasAttemptInProgress } from '@/shared/attempts';
import { useAuth } from '@/shared/auth';
import type { Catalogue, CatalogueEntry } from '@/shared/api/types';
import { CATEGORY_INFO, type Category } from './categories';
import { RetryAlert } from '@/shared/ui/RetryAlert';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; tests: CatalogueEntry[] };

/** Where an open test starts (a writing or speaking topic by its slug, such as /writing/luckyFind). */
function testPath(category: Category, test: CatalogueEntry): string {
  const id = test.id;
  switch (category) {
    case 'reading':
    case 'listening':
      return `/quiz/${category}/${id}`;
    case 'writing':
      return `/writing/${test.slug ? encodeURIComponent(test.slug) : String(id)}`;
    case 'speaking':
      return `/speaking/${test.slug ? encodeURIComponent(test.slug) : String(id)}`;
  }
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <rect x="5" y="10.5" width="14" height="10" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function Entry({ category, test, inProgress }: { category: Category; test: CatalogueEntry; inProgress: boolean }) {
  if (test.locked) {
    return (
      <li className="test-entry is-locked">
        <span className="test-entry-icon">
          <LockIcon />
        </span>
        <span className="test-entry-text">
          <span className="test-entry-title">{test.title} (Subscribe to unlock)</span>
          {/* Honest about what a plan buys today: this test's content is not published yet. */}
          {!test.available && <span className="test-entry-note">Content coming soon</span>}
        </span>
        <Link to="/#pricing" className="test-entry-plans" aria-label={`See plans to unlock ${test.title}`}>
          See plans
        </Link>
      </li>
    );
  }
  if (!test.available) {
    return (
      <li className="test-entry is-soon">
        <span className="test-entry-title">{test.title} (coming soon)</span>
      </li>
    );
  }
  return (
    <li className={`test-entry is-open${inProgress ? ' is-in-progress' : ''}`}>
      <Link to={testPath(category, test)} className="test-entry-link" aria-label={inProgress ? `Continue ${test.title}` : undefined}>
        <span className="test-entry-text">
          <span className="test-entry-title">{test.title}</span>
          {inProgress && <span className="test-entry-note">In progress</span>}
        </span>
        <span className="test-entry-go" aria-hidden="true">
          {inProgress ? 'Continue →' : 'Start →'}
        </span>
      </Link>
    </li>
  );
}

/** The tests of a category from GET /api/tests/{category}: open, locked or coming soon (spec §2). */
export function TestList({ category }: { category: Category }) {
  const { user } = useAuth();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    api
      .get<Catalogue>(`/api/tests/${category}`)
      .then((c) => {
        if (!cancelled) setLoad({ status: 'ready', tests: c.tests });
      })
      .catch((err: unknown) => {
        if (!cancelled) setLoad({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      cancelled = true;
    };
  }, [category, attempt]);

  const label = CATEGORY_INFO[category].label;
  if (load.status === 'loading') return <p className="page-status">Loading the tests…</p>;
  if (load.status === 'error') {
    return (
      <div className="test-list-error">
        <RetryAlert
          message={`The list of tests could not be loaded. ${load.message}`}
          onRetry={() => {
            setLoad({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      </div>
    );
  }
  if (load.tests.length === 0) {
    return <p className="notice">{label} tasks open in an upcoming release.</p>;
  }
  return (
    <section aria-labelledby="test-list-title">
      <h2 id="test-list-title" className="test-list-title">
        Choose a test
      </h2>
      <ul className="test-list">
        {load.tests.map((t) => (
          <Entry
            key={t.id}
            category={category}
            test={t}
            inProgress={(category === 'reading' || category === 'listening') && hasAttemptInProgress(user?.uid ?? 'anonymous', category, t.id)}
          />
        ))}
      </ul>
    </section>
  );
}
