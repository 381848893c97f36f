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
