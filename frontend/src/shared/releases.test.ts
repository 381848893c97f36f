import { describe, expect, it } from 'vitest';
import { describeSkill, SKILL_AVAILABLE } from './releases';

describe('describeSkill', () => {
  it('marks what cannot be practised yet, and only that', () => {
    expect(describeSkill('reading', '1 Reading exam')).toBe('1 Reading exam');
    expect(describeSkill('listening', '1 Listening exam')).toBe('1 Listening exam');
    for (const skill of ['writing', 'speaking'] as const) {
      expect(describeSkill(skill, 'x')).toBe(SKILL_AVAILABLE[skill] ? 'x' : 'x (coming soon)');
    }
  });
});
