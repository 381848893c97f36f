import { describe, expect, it } from 'vitest';
import { countWords, validationMessage } from './words';

const words = (n: number) => Array.from({ length: n }, (_, i) => `mot${i}`).join(' ');

describe('countWords', () => {
  it('counts whitespace-separated words, 0 for a blank text', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t ')).toBe(0);
    expect(countWords('Bonjour')).toBe(1);
    expect(countWords('  Il était  une\nfois,\tà la plage. ')).toBe(7);
    expect(countWords("« Aujourd'hui » c'est l'été")).toBe(5);
  });
});

describe('validationMessage', () => {
  it('asks for some text when it is blank', () => {
    expect(validationMessage('A', '  ')).toBe('Le texte ne peut pas être vide.');
    expect(validationMessage('B', '')).toBe('Le texte ne peut pas être vide.');
  });

  it('gives the exact range message of each section, with the current count', () => {
    expect(validationMessage('A', words(69))).toBe('Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 69)');
    expect(validationMessage('A', words(70))).toBeNull();
    expect(validationMessage('A', words(120))).toBeNull();
    expect(validationMessage('A', words(121))).toBe('Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 121)');
    expect(validationMessage('B', words(100))).toBe('Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 100)');
    expect(validationMessage('B', words(180))).toBeNull();
    expect(validationMessage('B', words(220))).toBeNull();
    expect(validationMessage('B', words(221))).toBe('Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 221)');
  });
});
