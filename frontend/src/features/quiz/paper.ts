import type { Paper } from '@/shared/api/types';

export const PAPER_LABEL: Record<Paper, string> = { reading: 'Reading', listening: 'Listening' };

export type RouteTarget =
  | { kind: 'quiz'; paper: Paper; testId: number }
  /** Not one of the four categories: the section page's invalid-category error. */
  | { kind: 'invalid-category' }
  /** Writing or speaking (no quiz), or an id that is not a test number. */
  | { kind: 'not-found'; category: string };

/** Reads the quiz route: the category is trimmed and lower-cased like the section page's. */
export function parseQuizRoute(rawCategory: string | undefined, rawTestId: string | undefined): RouteTarget {
  const category = (rawCategory ?? '').trim().toLowerCase();
  if (!['reading', 'listening', 'writing', 'speaking'].includes(category)) return { kind: 'invalid-category' };
  const id = (rawTestId ?? '').trim();
  if ((category !== 'reading' && category !== 'listening') || !/^[1-9]\d{0,3}$/.test(id)) {
    return { kind: 'not-found', category };
  }
  return { kind: 'quiz', paper: category, testId: Number(id) };
}
