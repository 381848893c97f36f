import type { Paper } from '@/shared/api/types';

/**
 * Where a reading or listening attempt in progress is kept on this device (localStorage),
 * per user and test. The quiz owns the stored shape (features/quiz/storage.ts); the section
 * page only asks whether an attempt is under way, to offer 'Continue' rather than 'Start'.
 */
const VERSION = 1;

export function attemptKey(uid: string, paper: Paper, testId: number): string {
  return `tef.quiz.v${VERSION}:${uid}:${paper}:${testId}`;
}

/**
 * Whether opening the test continues an attempt rather than starting one: the clock is
 * running, or the attempt is finished (or timed out) with answers still to be sent.
 */
export function hasAttemptInProgress(uid: string, paper: Paper, testId: number, now = Date.now()): boolean {
  let raw: string | null;
  try {
    raw = localStorage.getItem(attemptKey(uid, paper, testId));
  } catch {
    return false;
  }
  if (!raw) return false;
  try {
    const v = JSON.parse(raw) as Record<string, unknown> | null;
    if (typeof v !== 'object' || v === null) return false;
    const { answers, deadline, finishedAt } = v;
    if (!Array.isArray(answers) || typeof deadline !== 'number' || !Number.isFinite(deadline)) return false;
    const finished = typeof finishedAt === 'number';
    if (!finished && deadline > now) return true;
    // Finished or out of time: the quiz sends what was answered; an attempt without answers starts afresh.
    return answers.some((a) => typeof a === 'number');
  } catch {
    return false;
  }
}
