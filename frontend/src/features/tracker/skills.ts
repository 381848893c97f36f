import type { ProgressPoint, Skill } from '@/shared/api/types';

export interface SkillInfo {
  skill: Skill;
  /** The chart's title (spec §2). */
  title: string;
  label: string;
  color: string;
  /** Reading and listening results open in the results page. */
  reviewable: boolean;
}

/** The four charts, in the spec's order. */
export const SKILLS: SkillInfo[] = [
  { skill: 'listening', title: 'Compréhension Orale', label: 'Listening', color: '#b3261e', reviewable: true },
  { skill: 'reading', title: 'Compréhension Écrite', label: 'Reading', color: '#1f4a7a', reviewable: true },
  { skill: 'speaking', title: 'Production Orale', label: 'Speaking', color: '#1e6b34', reviewable: false },
  { skill: 'writing', title: 'Production Écrite', label: 'Writing', color: '#8a5a00', reviewable: false },
];

/** 'CLB 7', or 'CLB 3 or below' (decisions §2). */
export function clbText(clb: number): string {
  return clb <= 3 ? 'CLB 3 or below' : `CLB ${clb}`;
}

export const resultPath = (p: ProgressPoint) => `/results/${encodeURIComponent(p.resultId)}`;
