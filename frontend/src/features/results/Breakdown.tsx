import { useId, useState } from 'react';
import type { AttemptResult } from '@/shared/api/types';
import type { MediaRecovery } from '@/shared/ui/useMediaRecovery';
import { ReviewPanel } from './ReviewPanel';

function Mark({ correct }: { correct: boolean }) {
  return (
    <span className={`breakdown-mark ${correct ? 'is-right' : 'is-wrong'}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="18" height="18" focusable="false">
        {correct ? (
          <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.8" strokeLinecap="round" strokeLinejoin="round" />
        ) : (
          <path d="M7 7l10 10M17 7L7 17" fill="none" stroke="currentColor" strokeWidth="2.8" strokeLinecap="round" />
        )}
      </svg>
    </span>
  );
}

/** The answer breakdown, with a review of each question (decisions §5). */
export function Breakdown({ result, media }: { result: AttemptResult; media: MediaRecovery }) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const [mistakesOnly, setMistakesOnly] = useState(false);
  // A revised paper: the learner's answers cannot be shown against the current questions.
  const revised = result.paperChanged;
  const questions = mistakesOnly && !revised ? result.questions.filter((q) => !q.correct) : result.questions;
  const wrong = result.questions.filter((q) => !q.correct && q.yourAnswer !== null).length;
  const unanswered = result.questions.filter((q) => q.yourAnswer === null).length;
  const allOpen = questions.length > 0 && questions.every((q) => open.has(q.number));

  const toggle = (n: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(n)) next.delete(n);
      else next.add(n);
      return next;
    });

  return (
    <section className="breakdown" aria-labelledby={`${baseId}-title`}>
      <div className="breakdown-head">
        <div>
          <h2 id={`${baseId}-title`}>Answer breakdown</h2>
          {revised ? (
            <p className="notice breakdown-revised">
              This paper has been revised since you took it. Your score stands; the questions below are the current version,
              shown with their answers and explanations but without yours.
            </p>
          ) : (
            <p className="breakdown-counts">
              {result.score} correct · {wrong} wrong · {unanswered} unanswered
            </p>
          )}
        </div>
        <div className="breakdown-controls">
          {!revised && (
            <label className="breakdown-filter">
              <input type="checkbox" checked={mistakesOnly} onChange={(e) => setMistakesOnly(e.target.checked)} />
              Show mistakes only
            </label>
          )}
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-pressed={allOpen}
            onClick={() => setOpen(allOpen ? new Set() : new Set(questions.map((q) => q.number)))}
            disabled={questions.length === 0}
          >
            {allOpen ? 'Hide all reviews' : 'Review all'}
          </button>
        </div>
      </div>

      {questions.length === 0 ? (
        <p className="notice">No mistakes: every answer is correct.</p>
      ) : (
        <ol className="breakdown-list">
          {questions.map((q) => {
            const isOpen = open.has(q.number);
            const panelId = `${baseId}-review-${q.number}`;
            return (
              <li key={q.number} className={`breakdown-item ${revised ? '' : q.correct ? 'is-right' : 'is-wrong'}`}>
                <div className="breakdown-row">
                  {!revised && <Mark correct={q.correct} />}
                  <div className="breakdown-main">
                    <h3 className="breakdown-title">
                      Question {q.number}
                      {!revised && <span className="sr-only">{q.correct ? ', right' : ', wrong'}</span>}
                    </h3>
                    <p className="breakdown-prompt" lang="fr">
                      {q.prompt}
                    </p>
                    <dl className="breakdown-answers">
                      {!revised && (
                        <div>
                          <dt>Your answer</dt>
                          <dd className={q.yourAnswer === null ? 'is-empty' : undefined}>
                            {q.yourAnswer === null ? 'No answer' : <span lang="fr">{q.yourAnswer}</span>}
                          </dd>
                        </div>
                      )}
                      <div>
                        <dt>Correct answer</dt>
                        <dd lang="fr">{q.correctAnswer}</dd>
                      </div>
                    </dl>
                  </div>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm breakdown-toggle"
                    aria-label={`Review question ${q.number}`}
                    aria-expanded={isOpen}
                    aria-controls={isOpen ? panelId : undefined}
                    onClick={() => toggle(q.number)}
                  >
                    Review
                    <svg className="breakdown-chevron" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
                      <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                  </button>
                </div>
                {isOpen && <ReviewPanel id={panelId} question={q} media={media} />}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
