import { describe, expect, it } from 'vitest';
import { formatDuration } from './formatDuration';

describe('formatDuration', () => {
  it('writes m:ss under an hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(9)).toBe('0:09');
    expect(formatDuration(60)).toBe('1:00');
    expect(formatDuration(2400)).toBe('40:00');
    expect(formatDuration(3599)).toBe('59:59');
  });

  it('writes h:mm:ss from an hour', () => {
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(3725)).toBe('1:02:05');
  });

  it('never goes below zero and drops fractions', () => {
    expect(formatDuration(-5)).toBe('0:00');
    expect(formatDuration(61.9)).toBe('1:01');
  });
});
