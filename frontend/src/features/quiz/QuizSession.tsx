import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/shared/api';
import type { AttemptRequest, AttemptResult, QuizQuestion, QuizTest } from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { Modal } from '@/shared/ui/Modal';
import { RetryableImage } from '@/shared/ui/RetryableImage';
import { useMediaRecovery, type MediaRecovery } from '@/shared/ui/useMediaRecovery';
import { OnceAudioPlayer } from './OnceAudioPlayer';
import { PAPER_LABEL } from './paper';
import { QuestionNavigator } from './QuestionNavigator';
import { QuizTimer } from './QuizTimer';
import { attemptKey, clearAttempt, loadAttempt, saveAttempt, type SavedAttempt } from './storage';

interface Props {
  test: QuizTest;
  /** When the test's media links were issued. */
  issuedAt: number;
  /** Fetches the test again for fresh media links. */
  refresh: () => Promise<void>;
}

type Submission = { status: 'idle' } | { status: 'sending' } | { status: 'failed'; message: string };

/** The attempt to continue: the stored one, or a fresh one whose clock starts now. */
function startAttempt(key: string, total: number, limitMs: number, now: number): SavedAttempt {
  const fresh: SavedAttempt = { answers: Array.from({ length: total }, () => null), current: 0, played: [], deadline: now + limitMs, finishedAt: null };
  const saved = loadAttempt(key, total);
  if (!saved) return fresh;
  if (saved.finishedAt === null && saved.deadline <= now) {
    // Time ran out while the page was closed. Answers given are sent as they stand; an attempt
    // with no answer at all is a forgotten tab, not a result worth recording: start afresh.
    return saved.answers.some((a) => a !== null) ? { ...saved, finishedAt: saved.deadline } : fresh;
  }
  return saved;
}

/** Seconds used, at most the time limit. */
function usedSeconds(a: SavedAttempt, limitMs: number): number {
  const end = Math.min(a.finishedAt ?? Date.now(), a.deadline);
  const used = Math.round((end - (a.deadline - limitMs)) / 1000);
  return Math.min(Math.round(limitMs / 1000), Math.max(0, used));
}

function Material({ question, paper, media }: { question: QuizQuestion; paper: QuizTest['category']; media: MediaRecovery }) {
  const doc = question.document;
  const hasImage = Boolean(doc?.image) || Boolean(question.image);
  const hasDoc = Boolean(doc && (doc.title || doc.text || doc.image));
  if (!hasDoc && !question.image) {
    return paper === 'reading' ? <p className="quiz-no-image">No image available for this question.</p> : null;
  }
  return (
    <div className="quiz-material">
      {doc && hasDoc && (
        <article className="card quiz-document" lang="fr" aria-label={doc.title ?? 'Document'}>
          {doc.title && <h2 className="quiz-document-title">{doc.title}</h2>}
          {doc.text && <div className="quiz-document-text">{doc.text}</div>}
          {doc.image && (
            <div lang="en">
              <RetryableImage image={doc.image} media={media} />
            </div>
          )}
        </article>
      )}
      {question.image && (
        <div className="quiz-question-image">
          <RetryableImage image={question.image} media={media} />
        </div>
      )}
      {paper === 'reading' && !hasImage && <p className="quiz-no-image">No image available for this question.</p>}
    </div>
  );
}

/** A test being taken: one question at a time, the navigator, the timer, and the submission. */
export function QuizSession({ test, issuedAt, refresh }: Props) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const key = attemptKey(user?.uid ?? 'anonymous', test.category, test.id);
  const total = test.questions.length;
  const limitMs = test.timeLimitSeconds * 1000;

  const [mountedAt] = useState(() => Date.now());
  const [attempt, setAttempt] = useState<SavedAttempt>(() => startAttempt(key, total, limitMs, mountedAt));
  const [now, setNow] = useState(mountedAt);
  const [submission, setSubmission] = useState<Submission>(() => (attempt.finishedAt !== null ? { status: 'sending' } : { status: 'idle' }));
  const [confirming, setConfirming] = useState(false);
  const media = useMediaRecovery(refresh, issuedAt);
  const sending = useRef(false);
  const submitted = useRef(false);
  const topRef = useRef<HTMLDivElement>(null);
  // Stable, so the dialog does not refocus its first button each time the clock ticks.
  const keepAnswering = useCallback(() => setConfirming(false), []);

  // Every change is on this device at once; a successful submission clears it.
  useEffect(() => {
    if (!submitted.current) saveAttempt(key, attempt);
  }, [key, attempt]);

  const send = useCallback(
    (a: SavedAttempt) => {
      if (sending.current) return;
      sending.current = true;
      // The deadline is fixed when the attempt starts: it names the attempt, so a resent
      // submission (lost response, reload) is stored once.
      const body: AttemptRequest = {
        answers: a.answers,
        durationSeconds: usedSeconds(a, limitMs),
        attemptId: `${test.category}-${String(test.id)}-${String(a.deadline)}`,
      };
      api
        .post<AttemptResult>(`/api/tests/${test.category}/${test.id}/attempts`, body)
        .then((result) => {
          submitted.current = true;
          clearAttempt(key);
          void navigate(`/results/${encodeURIComponent(result.resultId)}`, { replace: true, state: { result, receivedAt: Date.now() } });
        })
        .catch((err: unknown) => {
          console.error('The attempt could not be submitted', err);
          setSubmission({ status: 'failed', message: err instanceof Error ? err.message : String(err) });
        })
        .finally(() => {
          sending.current = false;
        });
    },
    [key, limitMs, navigate, test.category, test.id],
  );

  const finish = useCallback(() => {
    if (attempt.finishedAt !== null) return;
    const finished = { ...attempt, finishedAt: Math.min(Date.now(), attempt.deadline) };
    setAttempt(finished);
    setConfirming(false);
    setSubmission({ status: 'sending' });
    send(finished);
  }, [attempt, send]);

  // An attempt finished before a reload (or timed out while closed) is sent straight away.
  const resume = useEffectEvent(() => {
    if (attempt.finishedAt !== null && submission.status === 'sending') send(attempt);
  });
  useEffect(() => {
    resume();
  }, []);

  // The clock: one tick each time the shown second changes; at 0 the test finishes without confirmation.
  const tick = useEffectEvent(() => {
    const t = Date.now();
    setNow(t);
    if (t >= attempt.deadline) finish();
  });
  const running = attempt.finishedAt === null;
  const deadline = attempt.deadline;
  useEffect(() => {
    if (!running) return;
    let id = 0;
    const schedule = () => {
      const left = deadline - Date.now();
      id = window.setTimeout(
        () => {
          tick();
          if (Date.now() < deadline) schedule();
        },
        left <= 0 ? 0 : left % 1000 || 1000,
      );
    };
    schedule();
    return () => window.clearTimeout(id);
  }, [running, deadline]);

  const remaining = Math.max(0, Math.ceil((attempt.deadline - now) / 1000));
  const label = PAPER_LABEL[test.category];

  if (submission.status !== 'idle') {
    return (
      <section className="page page-narrow status-page quiz-submit">
        <span className="pill">{label}</span>
        <h1 className="page-title">{test.title}</h1>
        {submission.status === 'sending' ? (
          <p className="page-status" role="status">
            Submitting…
          </p>
        ) : (
          <div className="quiz-submit-failed" role="alert">
            <p className="error-text">Your answers could not be submitted. {submission.message}</p>
            <p>They are kept on this device. Check your connection, then try again.</p>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setSubmission({ status: 'sending' });
                send(attempt);
              }}
            >
              Retry
            </button>
          </div>
        )}
      </section>
    );
  }

  const index = Math.min(attempt.current, total - 1);
  const question = test.questions[index];
  if (!question) return <p className="page error-text">This test has no questions.</p>;
  const chosen = attempt.answers[index] ?? null;
  const isLast = index === total - 1;
  const unanswered = attempt.answers.filter((a) => a === null).length;

  const goTo = (i: number) => {
    const next = Math.max(0, Math.min(total - 1, i));
    setAttempt((a) => ({ ...a, current: next }));
    const top = topRef.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start', behavior: 'instant' });
  };
  const choose = (option: number) =>
    setAttempt((a) => ({ ...a, answers: a.answers.map((v, i) => (i === index ? option : v)) }));
  const markPlayed = (n: number) => setAttempt((a) => (a.played.includes(n) ? a : { ...a, played: [...a.played, n] }));
  const unmarkPlayed = (n: number) => setAttempt((a) => ({ ...a, played: a.played.filter((p) => p !== n) }));
  const onFinish = () => (unanswered > 0 ? setConfirming(true) : finish());

  return (
    <section className={`page quiz-page quiz-${test.category}`} aria-labelledby="quiz-title">
      <header className="quiz-head">
        <span className="pill">{label}</span>
        <h1 id="quiz-title" className="quiz-title">
          {test.title}
        </h1>
      </header>

      <div className="quiz-bar">
        <div className="quiz-bar-row">
          <p className="quiz-position">
            <span aria-live="polite" aria-atomic="true">
              Question {index + 1} of {total}
            </span>
          </p>
          <QuizTimer remaining={remaining} />
        </div>
        <div
          className="quiz-progress"
          role="progressbar"
          aria-label="Position in the test"
          aria-valuemin={1}
          aria-valuemax={total}
          aria-valuenow={index + 1}
          aria-valuetext={`Question ${index + 1} of ${total}`}
        >
          <span className="quiz-progress-fill" style={{ width: `${((index + 1) / total) * 100}%` }} />
        </div>
      </div>

      <div ref={topRef} className={`quiz-layout${question.document || question.image ? ' has-material' : ''}`}>
        <Material key={`m${index}`} question={question} paper={test.category} media={media} />

        <div className="card quiz-question">
          {question.audio && (
            <OnceAudioPlayer
              key={`a${question.number}`}
              url={question.audio.url}
              played={attempt.played.includes(question.number)}
              media={media}
              onStarted={() => markPlayed(question.number)}
              onInterrupted={() => unmarkPlayed(question.number)}
            />
          )}
          <fieldset className="quiz-fieldset">
            <legend className="quiz-prompt">
              <span className="quiz-prompt-number">Question {question.number}</span>
              <span lang="fr">{question.prompt}</span>
            </legend>
            <div className="quiz-options">
              {question.options.map((option, i) => (
                <label key={i} className={`quiz-option${chosen === i ? ' is-selected' : ''}`}>
                  <input type="radio" name={`question-${question.number}`} value={i} checked={chosen === i} onChange={() => choose(i)} />
                  <span className="quiz-option-letter" aria-hidden="true">
                    {String.fromCharCode(65 + i)}
                  </span>
                  <span className="quiz-option-text" lang="fr">
                    {option}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="quiz-actions">
            <button type="button" className="btn btn-secondary" onClick={() => goTo(index - 1)} disabled={index === 0}>
              Previous
            </button>
            <button type="button" className={`btn ${isLast ? 'btn-accent' : 'btn-primary'}`} onClick={isLast ? onFinish : () => goTo(index + 1)}>
              {isLast ? 'Finish' : 'Next'}
            </button>
          </div>
        </div>
      </div>

      <QuestionNavigator total={total} current={index} answers={attempt.answers} onSelect={goTo} />

      {confirming && (
        <Modal
          title="Finish the test?"
          onDismiss={keepAnswering}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={keepAnswering}>
                Keep answering
              </button>
              <button type="button" className="btn btn-accent" onClick={finish}>
                Finish anyway
              </button>
            </>
          }
        >
          <p>
            You have {unanswered} unanswered {unanswered === 1 ? 'question' : 'questions'}. Finish anyway?
          </p>
        </Modal>
      )}
    </section>
  );
}
