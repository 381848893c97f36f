/**
 * Which skills can be practised today (all four). Until a skill's screens are built, every
 * page that describes it says so instead of promising it: people pay on what these pages say. Flip a skill to true when it ships.
 */
export type Skill = 'reading' | 'listening' | 'writing' | 'speaking';

export const SKILL_AVAILABLE: Record<Skill, boolean> = {
  reading: true,
  listening: true,
  writing: true,
  speaking: true,
};

export const COMING_SOON = 'coming soon';

/** A line about a skill, marked '(coming soon)' while the skill is not available. */
export function describeSkill(skill: Skill, text: string): string {
  return SKILL_AVAILABLE[skill] ? text : `${text} (${COMING_SOON})`;
}
