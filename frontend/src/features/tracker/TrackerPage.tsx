import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '@/shared/api';
import type { Progress, ProgressPoint } from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { formatLocalDate } from '@/shared/format';
import { clbText, resultPath, SKILLS, type SkillInfo } from './skills';
import './tracker.css';
import { RetryAlert } from '@/shared/ui/RetryAlert';

// recharts loads with the charts only, in its own chunk.
const SkillChart = lazy(() => import('./SkillChart'));

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; progress: Progress };

function SkillCard({ info, points }: { info: SkillInfo; points: ProgressPoint[] }) {
  const navigate = useNavigate();
  const latest = points[points.length - 1];
  const titleId = `tracker-${info.skill}`;
  return (
    <article className="card tracker-card" aria-labelledby={titleId} style={{ '--skill-color': info.color } as React.CSSProperties}>
      <header className="tracker-card-head">
        <div>
          <h2 id={titleId} lang="fr">
            {info.title}
          </h2>
          <p className="tracker-card-skill">{info.label}</p>
        </div>
        <p className="tracker-latest">Latest: {latest ? clbText(latest.clb) : 'N/A'}</p>
      </header>
      {points.length === 0 ? (
        <p className="tracker-empty">No results available for this section yet. Keep practicing!</p>
      ) : (
        <>
          <Suspense fallback={<div className="tracker-chart tracker-chart-loading" aria-hidden="true" />}>
            <SkillChart
              title={info.title}
              points={points}
              color={info.color}
              onOpen={info.reviewable ? (p) => void navigate(resultPath(p)) : undefined}
            />
          </Suspense>
          <ol className="tracker-sessions" aria-label={`${info.label} sessions`}>
            {points.map((p, i) => (
              <li key={p.resultId}>
                <span className="tracker-session-name">Session {i + 1}</span>
                <span className="tracker-session-date">{formatLocalDate(p.timestamp)}</span>
                <span className="tracker-session-clb">{clbText(p.clb)}</span>
                {info.reviewable && (
                  <Link to={resultPath(p)} className="tracker-review" aria-label={`Review session ${i + 1}, ${info.label} Test ${p.testId}`}>
                    Review
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </article>
  );
}

function Overall({ progress }: { progress: Progress }) {
  const { overallClb, skillsWithResults } = progress;
  return (
    <aside className="card tracker-overall" aria-labelledby="tracker-overall-title">
      <h2 id="tracker-overall-title" className="tracker-kicker">
        Overall level
      </h2>
      {overallClb === null ? (
        <>
          <p className="tracker-overall-value">Overall CLB: N/A</p>
          <p className="tracker-overall-note">Finish a test in any skill to see your overall level.</p>
        </>
      ) : (
        <>
          <p className="tracker-overall-value">Overall {clbText(overallClb)} — your lowest skill</p>
          {skillsWithResults < 4 && <p className="tracker-overall-basis">based on {skillsWithResults} of 4 skills</p>}
          <p className="tracker-overall-note">IRCC counts your overall level as your lowest skill, from each skill's latest session.</p>
        </>
      )}
      <ul className="tracker-overall-skills">
        {SKILLS.map((s) => {
          const last = progress.skills[s.skill].at(-1);
          return (
            <li key={s.skill}>
              <span className="tracker-dot" style={{ background: s.color }} aria-hidden="true" />
              <span>{s.label}</span>
              <strong>{last ? clbText(last.clb) : 'N/A'}</strong>
            </li>
          );
        })}
      </ul>
      <p className="tracker-overall-note">Estimates from practice tests, not official results.</p>
    </aside>
  );
}

function Tracker() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    api
      .get<Progress>('/api/progress')
      .then((progress) => {
        if (!cancelled) setLoad({ status: 'ready', progress });
      })
      .catch((err: unknown) => {
        console.error('Could not load the progress', err);
        if (!cancelled) setLoad({ status: 'error' });
      });
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  if (load.status === 'loading') return <p className="page-status">Loading results... Please wait.</p>;
  if (load.status === 'error') {
    return (
      <div className="tracker-error">
        <RetryAlert
          message="Failed to load some or all exam results."
          onRetry={() => {
            setLoad({ status: 'loading' });
            setAttempt((n) => n + 1);
          }}
        />
      </div>
    );
  }
  const { progress } = load;
  return (
    <div className="tracker-layout">
      <Overall progress={progress} />
      <div className="tracker-grid">
        {SKILLS.map((s) => (
          <SkillCard key={s.skill} info={s} points={progress.skills[s.skill]} />
        ))}
      </div>
    </div>
  );
}

/** `/results-tracker`: CLB progress in the four skills, and the overall CLB (spec §2, decisions §5). */
export function TrackerPage() {
  const { user } = useAuth();
  return (
    <section className="page tracker-page" aria-labelledby="tracker-title">
      <h1 id="tracker-title" className="page-title">
        Your CLB Progress Tracker
      </h1>
      {user ? (
        <>
          <p className="page-lead">Your last five sessions in each skill, oldest to newest. Select a reading or listening session to review it.</p>
          <Tracker key={user.uid} />
        </>
      ) : (
        <p className="error-text">Please log in to view your results tracker.</p>
      )}
    </section>
  );
}
