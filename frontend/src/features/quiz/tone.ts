/**
 * The sound check's test sound, made with Web Audio: a short rising and falling chime of sine
 * notes. Its level is set so that its loudness is close to the −18 LUFS that every recording of
 * the papers is normalised to (see publish.rs); e2e measures it with ffmpeg's EBU R128 meter.
 */

/** C5 E5 G5 C6 G5 E5 C5, in Hz. */
export const TONE_NOTES = [523.25, 659.25, 783.99, 1046.5, 783.99, 659.25, 523.25] as const;
export const NOTE_SECONDS = 0.42;
/** Peak amplitude of each note (full scale = 1). */
export const TONE_LEVEL = 0.2;

/** Schedules the test sound on `ctx` from `start` (default: now); returns its length in seconds. */
export function scheduleTestTone(ctx: BaseAudioContext, start = ctx.currentTime): number {
  TONE_NOTES.forEach((frequency, i) => {
    const t = start + i * NOTE_SECONDS;
    const osc = ctx.createOscillator();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    const gain = ctx.createGain();
    // Short fades at both ends: no click between notes.
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(TONE_LEVEL, t + 0.02);
    gain.gain.setValueAtTime(TONE_LEVEL, t + NOTE_SECONDS - 0.06);
    gain.gain.linearRampToValueAtTime(0, t + NOTE_SECONDS - 0.005);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + NOTE_SECONDS);
  });
  return TONE_NOTES.length * NOTE_SECONDS;
}
