/**
 * Which skills can be practised today. Until a skill's screens are built (speaking is
 * on the way), every page that describes it says so instead of promising it:
 * people pay on what these pages say. Flip a skill to true when it ships.
 */
export type Skill = 'reading' | 'listening' | 'writing' | 'speaking';

export const SKILL_AVAILABLE: Record<Skill, boolean> = {
  reading: true,
  listening: true,
  writing: true,
  speaking: false,
};

export const COMING_SOON = 'coming soon';

/** A line about a skill, marked '(coming soon)' while the skill is not available. */
export function describeSkill(skill: Skill, text: string): string {
  return SKILL_AVAILABLE[skill] ? text : `${text} (${COMING_SOON})`;
}
