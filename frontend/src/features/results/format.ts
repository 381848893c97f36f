import type { Paper, TefScore } from '@/shared/api/types';

export const PAPER_LABEL: Record<Paper, string> = { reading: 'Reading', listening: 'Listening' };

/** '220 / 300', or 'below 121 / 300' under the CLB 4 floor (decisions §2: never invent a range). */
export function tefText(score: TefScore): string {
  return score.kind === 'score' ? `${score.value} / ${score.max}` : `below ${score.below} / ${score.max}`;
}

/** 'CLB 7', or 'CLB 3 or below'. */
export function clbText(clb: number): string {
  return clb <= 3 ? 'CLB 3 or below' : `CLB ${clb}`;
}

/** The papers' time limits in seconds (spec §9: reading 3600 s, listening 2400 s). */
export const TIME_LIMIT_SECONDS: Record<Paper, number> = { reading: 3600, listening: 2400 };

/**
 * Whether the clock ran out. The quiz reports whole seconds elapsed, so only an attempt that
 * reached its deadline (finished by the timer, or found out of time on reopening) reports the
 * full limit; the server keeps the figure (clamped above), so this holds after a reload too.
 */
export function timeRanOut(paper: Paper, durationSeconds: number): boolean {
  return durationSeconds >= TIME_LIMIT_SECONDS[paper];
}
