export { attemptKey } from '@/shared/attempts';

/**
 * An attempt in progress, kept in localStorage so that a reload or a lost connection
 * loses nothing (decisions §5). The deadline is absolute: time runs while the page is closed.
 */
export interface SavedAttempt {
  /** `answers[i]` is the chosen option of question i+1, or null. */
  answers: (number | null)[];
  /** Index of the question on screen. */
  current: number;
  /** Numbers of the listening questions whose audio has been played (started). */
  played: number[];
  /**
   * Recordings started but not heard to the end (the page was reloaded or left mid-clip):
   * question number → seconds reached. Such a recording resumes from there instead of counting as played.
   */
  stoppedAt: Record<number, number>;
  /** When time runs out, ms since the epoch. */
  deadline: number;
  /** Set when the candidate finished (or time ran out); the attempt is then only waiting to be sent. */
  finishedAt: number | null;
}

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Only positions of recordings marked as played, as finite seconds ≥ 0. */
function readStoppedAt(v: unknown, played: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, seconds] of Object.entries(v)) {
    const n = Number(k);
    if (played.includes(n) && typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) out[n] = seconds;
  }
  return out;
}

/** The stored attempt for a test of `questionCount` questions, or null if none (or unreadable). */
export function loadAttempt(key: string, questionCount: number): SavedAttempt | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    const { answers, current, played, stoppedAt, deadline, finishedAt } = v;
    if (!Array.isArray(answers) || !Array.isArray(played) || typeof deadline !== 'number' || !Number.isFinite(deadline)) return null;
    const normalized = Array.from({ length: questionCount }, (_, i) => {
      const a: unknown = answers[i];
      return isIndex(a) ? a : null;
    });
    const playedNumbers = played.filter(isIndex);
    return {
      answers: normalized,
      current: isIndex(current) ? Math.min(current, Math.max(0, questionCount - 1)) : 0,
      played: playedNumbers,
      stoppedAt: readStoppedAt(stoppedAt, playedNumbers),
      deadline,
      finishedAt: typeof finishedAt === 'number' && Number.isFinite(finishedAt) ? finishedAt : null,
    };
  } catch {
    return null;
  }
}

export function saveAttempt(key: string, attempt: SavedAttempt): void {
  try {
    localStorage.setItem(key, JSON.stringify(attempt));
  } catch (err) {
    // Storage full or disabled: the attempt still runs, it just won't survive a reload.
    console.warn('Could not save the attempt on this device', err);
  }
}

export function clearAttempt(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing to clear.
  }
}
