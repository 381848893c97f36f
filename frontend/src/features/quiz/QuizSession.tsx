import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';
import { api } from '@/shared/api';
import type { AttemptRequest, AttemptResult, QuizQuestion, QuizTest } from '@/shared/api/types';
import { useAuth } from '@/shared/auth';
import { Modal } from '@/shared/ui/Modal';
import { RetryableImage } from '@/shared/ui/RetryableImage';
import { useMediaRecovery, type MediaRecovery } from '@/shared/ui/useMediaRecovery';
import { OnceAudioPlayer, type ClipProgress } from './OnceAudioPlayer';
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
  const fresh: SavedAttempt = {
    answers: Array.from({ length: total }, () => null),
    current: 0,
    played: [],
    stoppedAt: {},
    deadline: now + limitMs,
    finishedAt: null,
  };
  const saved = loadAttempt(key, total);
  if (!saved) return fresh;
  if (saved.finishedAt === null && saved.deadline <= now) {
    // Time ran out while the page was closed. Answers given are sent as they stand; an attempt
    // with no answer at all is a forgotten tab, not a result worth recording: start afresh.
    return saved.answers.some((a) => a !== null) ? { ...saved, finishedAt: saved.deadline } : fresh;
  }
  return saved;
}

/**
 * Seconds used, at most the time limit. Whole seconds elapsed, so that only an attempt that ran
 * to its deadline reports the full time limit: the results page reads that as 'time ran out'.
 */
export function usedSeconds(a: SavedAttempt, limitMs: number): number {
  const end = Math.min(a.finishedAt ?? Date.now(), a.deadline);
  const used = Math.floor((end - (a.deadline - limitMs)) / 1000);
  return Math.min(Math.round(limitMs / 1000), Math.max(0, used));
}

/** Questions on the same document share its panel, so the text stays scrolled where the learner left it. */
function materialKey(q: QuizQuestion, index: number): string {
  const doc = q.document;
  if (!doc || q.image) return `m${index}`;
  return `d:${doc.title ?? ''}:${doc.text?.length ?? 0}:${doc.image?.alt ?? ''}`;
}

/** What the player resumes from: a stopped recording, one heard to the end, or a fresh one. */
function clipProgress(a: SavedAttempt, n: number): ClipProgress {
  const at = a.stoppedAt[n];
  if (at !== undefined) return { kind: 'stopped', at };
  return a.played.includes(n) ? { kind: 'played' } : { kind: 'fresh' };
}

/**
 * A document's text. Where the layout caps its height (phones and tablets, so that the question
 * stays close), a text longer than the panel scrolls inside it: it is then focusable and labelled
 * for keyboard and screen-reader users, with a visible hint.
 */
function DocumentText({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setScrollable(el.scrollHeight > el.clientHeight + 1));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      <div
        ref={ref}
        className={`quiz-document-text${scrollable ? ' is-scrollable' : ''}`}
        {...(scrollable ? { tabIndex: 0, role: 'region', 'aria-label': 'Document text, scrollable' } : {})}
      >
        {text}
      </div>
      {scrollable && (
        <p className="quiz-document-hint" lang="en">
          Scroll inside the text to read all of it.
        </p>
      )}
    </>
  );
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
          {doc.text && <DocumentText text={doc.text} />}
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
  // The question whose recording is audibly playing, if any: moving away then asks first.
  const [playingClip, setPlayingClip] = useState<number | null>(null);
  // The question index the learner asked to go to while a recording plays (awaiting confirmation).
  const [leavingTo, setLeavingTo] = useState<number | null>(null);
  const media = useMediaRecovery(refresh, issuedAt);
  const sending = useRef(false);
  const submitted = useRef(false);
  const topRef = useRef<HTMLDivElement>(null);
  const statusRef = useRef<HTMLElement>(null);
  // Stable, so the dialog does not refocus its first button each time the clock ticks.
  const keepAnswering = useCallback(() => setConfirming(false), []);

  const guarding = playingClip !== null && submission.status === 'idle' && attempt.finishedAt === null;
  // In-app links (navbar, footer) while a recording plays: the dialog below asks first.
  // Read through refs, so that a navigation right after a render (the results page once the
  // answers are sent) never meets a stale answer.
  const guardingRef = useRef(guarding);
  useLayoutEffect(() => {
    guardingRef.current = guarding;
  });
  const shouldBlock = useCallback(() => guardingRef.current && !submitted.current, []);
  const blocker = useBlocker(shouldBlock);
  const blockerRef = useRef(blocker);
  useEffect(() => {
    blockerRef.current = blocker;
  });
  const stayOnPage = useCallback(() => {
    if (blockerRef.current.state === 'blocked') blockerRef.current.reset();
  }, []);
  const keepListening = useCallback(() => setLeavingTo(null), []);
  const clipPlaying = useCallback((n: number, playing: boolean) => {
    if (playing) {
      setPlayingClip(n);
      return;
    }
    setPlayingClip((c) => (c === n ? null : c));
    // The recording ended or stopped: nothing left to ask about.
    setLeavingTo(null);
    if (blockerRef.current.state === 'blocked') blockerRef.current.reset();
  }, []);

  // Closing or reloading the tab while a recording plays: the browser asks first. A reload then
  // resumes the recording where it stopped (its position is saved with the attempt).
  useEffect(() => {
    if (!guarding) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [guarding]);

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

  // The submitting (or failed) screen is short: show it from its top, not where the test was scrolled.
  const showingStatus = submission.status !== 'idle';
  useLayoutEffect(() => {
    const el = statusRef.current;
    if (showingStatus && el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: 'start', behavior: 'instant' });
  }, [showingStatus]);

  const remaining = Math.max(0, Math.ceil((attempt.deadline - now) / 1000));
  const label = PAPER_LABEL[test.category];

  if (submission.status !== 'idle') {
    return (
      <section ref={statusRef} className="page page-narrow status-page quiz-submit">
        <span className="pill">{label}</span>
        <h1 className="page-title">{test.title}</h1>
        {submission.status === 'sending' ? (
          <p className="page-status" role="status">
            Submitting…
          </p>
        ) : (
          <div className="quiz-submit-failed" role="alert">
            <p className="error-text">Your answers could not be submitted. {submission.message}</p>
            <p>Your answers are kept on this device. Press Retry to send them again.</p>
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
    setLeavingTo(null);
    setAttempt((a) => ({ ...a, current: next }));
    const top = topRef.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start', behavior: 'instant' });
  };
  const choose = (option: number) =>
    setAttempt((a) => ({ ...a, answers: a.answers.map((v, i) => (i === index ? option : v)) }));
  /** Another question: asks first while a recording plays. */
  const requestGoTo = (i: number) => (guarding && i !== index ? setLeavingTo(Math.max(0, Math.min(total - 1, i))) : goTo(i));
  // A recording under way counts as played, and remembers where it is so that it can resume.
  const clipAt = (n: number, seconds: number) =>
    setAttempt((a) => ({
      ...a,
      played: a.played.includes(n) ? a.played : [...a.played, n],
      stoppedAt: { ...a.stoppedAt, [n]: seconds },
    }));
  const clipEnded = (n: number) =>
    setAttempt((a) => ({ ...a, stoppedAt: Object.fromEntries(Object.entries(a.stoppedAt).filter(([k]) => Number(k) !== n)) }));
  const onFinish = () => (unanswered > 0 || guarding ? setConfirming(true) : finish());
  const recordingNote = `The recording of question ${question.number} is still playing.`;

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
        <Material key={materialKey(question, index)} question={question} paper={test.category} media={media} />

        <div className="card quiz-question">
          {question.audio && (
            <OnceAudioPlayer
              key={`a${question.number}`}
              url={question.audio.url}
              progress={clipProgress(attempt, question.number)}
              media={media}
              onPosition={(seconds) => clipAt(question.number, seconds)}
              onEnded={() => clipEnded(question.number)}
              onPlayingChange={(playing) => clipPlaying(question.number, playing)}
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
            <button type="button" className="btn btn-secondary" onClick={() => requestGoTo(index - 1)} disabled={index === 0}>
              Previous
            </button>
            <button type="button" className={`btn ${isLast ? 'btn-accent' : 'btn-primary'}`} onClick={isLast ? onFinish : () => requestGoTo(index + 1)}>
              {isLast ? 'Finish' : 'Next'}
            </button>
          </div>
        </div>
      </div>

      <QuestionNavigator total={total} current={index} answers={attempt.answers} onSelect={requestGoTo} />

      {confirming && (
        <Modal
          title="Finish the test?"
          onDismiss={keepAnswering}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={keepAnswering}>
                {guarding ? 'Keep listening' : 'Keep answering'}
              </button>
              <button type="button" className="btn btn-accent" onClick={finish}>
                Finish anyway
              </button>
            </>
          }
        >
          {guarding && unanswered > 0 && <p>{recordingNote} If you finish now, the rest of it is not heard.</p>}
          <p>
            {unanswered > 0
              ? `You have ${unanswered} unanswered ${unanswered === 1 ? 'question' : 'questions'}. Finish anyway?`
              : `${recordingNote} If you finish now, the rest of it is not heard. Finish anyway?`}
          </p>
        </Modal>
      )}

      {guarding && leavingTo !== null && !confirming && (
        <Modal
          title="Stop the recording?"
          onDismiss={keepListening}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={keepListening}>
                Keep listening
              </button>
              <button type="button" className="btn btn-primary" onClick={() => goTo(leavingTo)}>
                Go to question {leavingTo + 1}
              </button>
            </>
          }
        >
          <p>
            {recordingNote} If you go to question {leavingTo + 1}, it stops. When you come back to question {question.number}, you can
            resume it from where it stopped.
          </p>
        </Modal>
      )}

      {blocker.state === 'blocked' && (
        <Modal
          title="Leave the test?"
          onDismiss={stayOnPage}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={stayOnPage}>
                Keep listening
              </button>
              <button type="button" className="btn btn-primary" onClick={() => blocker.proceed()}>
                Leave this page
              </button>
            </>
          }
        >
          <p>
            {recordingNote} If you leave this page, it stops. When you come back to this test, you can resume it from where it stopped;
            the clock keeps running while you are away.
          </p>
        </Modal>
      )}
    </section>
  );
}
