import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError } from '@/shared/api';
import { hasAttemptInProgress } from '@/shared/attempts';
import { useAuth } from '@/shared/auth';
import type { Paper, QuizTest } from '@/shared/api/types';
import { PAPER_LABEL, parseQuizRoute } from './paper';
import { QuizSession } from './QuizSession';
import { SoundCheck } from './SoundCheck';
import './quiz.css';
import { RetryAlert } from '@/shared/ui/RetryAlert';
import { InvalidCategory } from '@/shared/ui/InvalidCategory';

type Load =
  | { status: 'loading' }
  | { status: 'locked' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'ready'; test: QuizTest; issuedAt: number };

function NotFound({ category }: { category: string }) {
  const back = category === 'reading' || category === 'listening' || category === 'writing' || category === 'speaking';
  return (
    <section className="page page-narrow status-page">
      <h1 className="page-title">Test not found</h1>
      <p className="page-lead">This test doesn't exist. Please choose one from the list of tests.</p>
      <Link to={back ? `/section/${category}` : '/'} className="btn btn-primary">
        {back ? 'Back to the list of tests' : 'Back to Home'}
      </Link>
    </section>
  );
}

/** A loaded test: a listening paper not yet started opens on the sound check; the clock starts after it. */
function Ready({ test, issuedAt, refresh }: { test: QuizTest; issuedAt: number; refresh: () => Promise<void> }) {
  const { user } = useAuth();
  const [checking, setChecking] = useState(
    () => test.category === 'listening' && !hasAttemptInProgress(user?.uid ?? 'anonymous', test.category, test.id),
  );
  if (checking) return <SoundCheck test={test} onStart={() => setChecking(false)} />;
  return <QuizSession test={test} issuedAt={issuedAt} refresh={refresh} />;
}

function Loader({ paper, testId }: { paper: Paper; testId: number }) {
  const url = `/api/tests/${paper}/${testId}`;
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    api
      .get<QuizTest>(url)
      .then((test) => {
        if (!cancelled) setLoad({ status: 'ready', test, issuedAt: Date.now() });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 403) setLoad({ status: 'locked' });
        else if (err instanceof ApiError && err.status === 404) setLoad({ status: 'not-found' });
        else setLoad({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      cancelled = true;
    };
  }, [url, attempt]);

  /** Fetches the test again for fresh media links (they expire after 15 minutes); the attempt is untouched. */
  const refresh = useCallback(async () => {
    const test = await api.get<QuizTest>(url);
    setLoad({ status: 'ready', test, issuedAt: Date.now() });
  }, [url]);

  const label = PAPER_LABEL[paper];
  switch (load.status) {
    case 'loading':
      return <p className="page-status">Loading the test…</p>;
    case 'not-found':
      return <NotFound category={paper} />;
    case 'locked':
      return (
        <section className="page page-narrow status-page">
          <h1 className="page-title">
            {label} Test {testId} is locked
          </h1>
          <p className="page-lead">This test is included in the paid plans. Subscribe to unlock all ten {paper} tests.</p>
          <div className="quiz-status-actions">
            <Link to="/#pricing" className="btn btn-accent">
              See plans
            </Link>
            <Link to={`/section/${paper}`} className="btn btn-secondary">
              Back to {label} Selection
            </Link>
          </div>
        </section>
      );
    case 'error':
      return (
        <section className="page page-narrow status-page">
          <h1 className="page-title">
            {label} Test {testId}
          </h1>
          <RetryAlert
            primary
            message={`The test could not be loaded. ${load.message}`}
            onRetry={() => {
              setLoad({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          />
        </section>
      );
    case 'ready':
      return <Ready test={load.test} issuedAt={load.issuedAt} refresh={refresh} />;
  }
}

/** `/quiz/:category/:testId`: a timed reading or listening test (spec §2, decisions §4–5). */
export function QuizPage() {
  const params = useParams();
  const target = parseQuizRoute(params.category, params.testId);
  if (target.kind === 'invalid-category') {
    return <InvalidCategory />;
  }
  if (target.kind === 'not-found') return <NotFound category={target.category} />;
  return <Loader key={`${target.paper}/${target.testId}`} paper={target.paper} testId={target.testId} />;
}
