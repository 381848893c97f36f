import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { api, ApiError } from '@/shared/api';
import type { AttemptResult } from '@/shared/api/types';
import { formatLocalDate } from '@/shared/format';
import { formatDuration } from '@/shared/ui/formatDuration';
import { useMediaRecovery } from '@/shared/ui/useMediaRecovery';
import { Breakdown } from './Breakdown';
import { clbText, PAPER_LABEL, tefText, timeRanOut } from './format';
import { ScoreRing } from './ScoreRing';
import './results.css';
import { RetryAlert } from '@/shared/ui/RetryAlert';

type Load =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'ready'; result: AttemptResult; issuedAt: number };

/** The graded attempt handed over by the quiz in router state (no second fetch). */
function fromRouterState(state: unknown, resultId: string): { result: AttemptResult; issuedAt: number } | null {
  if (typeof state !== 'object' || state === null || !('result' in state)) return null;
  const result = state.result as AttemptResult | null;
  if (!result || typeof result !== 'object' || result.resultId !== resultId || !Array.isArray(result.questions)) return null;
  const receivedAt = 'receivedAt' in state && typeof state.receivedAt === 'number' ? state.receivedAt : 0;
  return { result, issuedAt: receivedAt };
}

function ResultsView({ result, issuedAt, refresh }: { result: AttemptResult; issuedAt: number; refresh: () => Promise<void> }) {
  const media = useMediaRecovery(refresh, issuedAt);
  const label = PAPER_LABEL[result.category];
  const answers = result.score === 1 ? 'correct answer' : 'correct answers';
  return (
    <section className="page results-page" aria-labelledby="results-title">
      <header className="results-head">
        <span className="pill">{label}</span>
        <h1 id="results-title" className="page-title">
          Your Test Results
        </h1>
        <p className="results-subtitle">
          {result.title} · {formatLocalDate(result.timestamp)}
        </p>
      </header>

      <div className="results-summary">
        <div className="card results-score">
          <ScoreRing score={result.score} total={result.total} percent={result.percent} />
          <div>
            <p className="results-kicker">Score</p>
            <p className="results-score-text">
              {result.score} / {result.total} ({result.percent}%)
            </p>
            <p className="results-time">Time taken: {formatDuration(result.durationSeconds)}</p>
            {timeRanOut(result.category, result.durationSeconds) && (
              <p className="results-timeout">Time ran out: your answers were submitted as they stood when the clock reached 0:00.</p>
            )}
          </div>
        </div>

        <div className="card results-level">
          <p className="results-kicker">Estimated level</p>
          <p className={`results-clb${result.clb <= 3 ? ' is-floor' : ''}`}>{clbText(result.clb)}</p>
          <p className="results-tef">TEF estimate: {tefText(result.tefOld)}</p>
          <p className="results-tef">{tefText(result.tefNew)} (since Dec 2023)</p>
          <p className="results-scale-note">
            The first figure uses the scale printed on TEF Canada certificates; the second, the 0–699 scale of tests taken since
            December 2023.
          </p>
        </div>

        <div className="card results-basis">
          <p>
            <strong>Based On:</strong> {result.score} {answers} out of {result.total} on {result.title}, IRCC equivalence tables
          </p>
          {/* A real comparison only (decisions §5): other learners' first attempts, once 30 exist. */}
          <p className="results-exceeds">
            {result.exceedsPercent === null
              ? `You answered ${String(result.percent)}% of the questions correctly.`
              : `Your performance exceeds ${String(result.exceedsPercent)}% of the people conducting the test here!`}
          </p>
        </div>
      </div>

      <p className="notice results-disclaimer">
        These scores are estimates from a practice test, converted with the IRCC equivalence tables. They are not official TEF
        Canada results.
      </p>

      <div className="results-actions">
        <Link to="/" className="btn btn-secondary">
          Back to Main Menu
        </Link>
        <Link to={`/section/${result.category}`} className="btn btn-primary">
          Back to {label} Selection
        </Link>
      </div>

      <Breakdown result={result} media={media} />
    </section>
  );
}

function Loader({ resultId, initial }: { resultId: string; initial: { result: AttemptResult; issuedAt: number } | null }) {
  const url = `/api/results/${encodeURIComponent(resultId)}`;
  const [load, setLoad] = useState<Load>(initial ? { status: 'ready', ...initial } : { status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const needsFetch = load.status === 'loading';

  useEffect(() => {
    if (!needsFetch) return;
    let cancelled = false;
    api
      .get<AttemptResult>(url)
      .then((result) => {
        if (!cancelled) setLoad({ status: 'ready', result, issuedAt: Date.now() });
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.status === 404) setLoad({ status: 'not-found' });
        else setLoad({ status: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      cancelled = true;
    };
  }, [url, attempt, needsFetch]);

  /** Fetches the result again for fresh media links. */
  const refresh = useCallback(async () => {
    const result = await api.get<AttemptResult>(url);
    setLoad({ status: 'ready', result, issuedAt: Date.now() });
  }, [url]);

  switch (load.status) {
    case 'loading':
      return <p className="page-status">Loading your results…</p>;
    case 'not-found':
      return (
        <section className="page page-narrow status-page">
          <h1 className="page-title">Result not found</h1>
          <p className="page-lead">This result doesn't exist, or it belongs to another account.</p>
          <Link to="/results-tracker" className="btn btn-primary">
            Open your Results Tracker
          </Link>
        </section>
      );
    case 'error':
      return (
        <section className="page page-narrow status-page">
          <h1 className="page-title">Your Test Results</h1>
          <RetryAlert
            primary
            message={`Your results could not be loaded. ${load.message}`}
            onRetry={() => {
              setLoad({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          />
        </section>
      );
    case 'ready':
      return <ResultsView result={load.result} issuedAt={load.issuedAt} refresh={refresh} />;
  }
}

/** `/results/:resultId`: a graded attempt, with the answer breakdown and the review (spec §2, decisions §2, §5). */
export function ResultsPage() {
  const { resultId = '' } = useParams();
  const { state } = useLocation() as { state: unknown };
  const initial = fromRouterState(state, resultId);
  return <Loader key={resultId} resultId={resultId} initial={initial} />;
}
