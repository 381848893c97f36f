import type { WritingSection } from '@/shared/api/types';

/** The word range of each task (spec §5, §9). */
export const WORD_LIMITS: Record<WritingSection, { min: number; max: number }> = {
  A: { min: 70, max: 120 },
  B: { min: 180, max: 220 },
};

/** Words are whitespace-separated (spec §5); a blank text has none. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

export const EMPTY_TEXT = 'Le texte ne peut pas être vide.';

/** Why the text cannot be sent yet (spec §5, the server's own words), or null when it can. */
export function validationMessage(section: WritingSection, text: string): string | null {
  const n = countWords(text);
  if (n === 0) return EMPTY_TEXT;
  const { min, max } = WORD_LIMITS[section];
  if (n < min || n > max) return `Section ${section}: Votre texte doit contenir entre ${min} et ${max} mots. (Actuel: ${n})`;
  return null;
}
