import { useState, type MouseEvent } from 'react';

/** The French characters a standard keyboard lacks (spec: "French special-character keyboard"). */
export const ACCENT_KEYS = ['à', 'â', 'æ', 'ç', 'é', 'è', 'ê', 'ë', 'î', 'ï', 'ô', 'œ', 'ù', 'û', 'ü', 'ÿ', '«', '»', '’'] as const;

/** A key's character, upper case when Shift is on (« » ’ have no capital). */
export function keyChar(key: string, shift: boolean): string {
  return shift ? key.toLocaleUpperCase('fr') : key;
}

/** Clicking a key must leave the caret (and the selection) in the text area. */
const keepCaret = (e: MouseEvent) => e.preventDefault();

/**
 * The special-character keyboard: each key inserts its character at the caret of the text
 * area (`onInsert`); Shift (Maj) toggles capitals until pressed again.
 */
export function AccentKeyboard({ onInsert, disabled = false }: { onInsert: (char: string) => void; disabled?: boolean }) {
  const [shift, setShift] = useState(false);
  return (
    <div className="writing-keyboard" role="group" aria-label="Caractères spéciaux">
      <button
        type="button"
        className={`writing-key writing-key-shift${shift ? ' is-on' : ''}`}
        aria-pressed={shift}
        aria-label="Maj (majuscules)"
        title="Majuscules"
        onMouseDown={keepCaret}
        onClick={() => setShift((s) => !s)}
        disabled={disabled}
      >
        <span aria-hidden="true">⇧ Maj</span>
      </button>
      {ACCENT_KEYS.map((key) => {
        const char = keyChar(key, shift);
        return (
          <button
            key={key}
            type="button"
            className="writing-key"
            lang="fr"
            onMouseDown={keepCaret}
            onClick={() => onInsert(char)}
            disabled={disabled}
          >
            {char}
          </button>
        );
      })}
    </div>
  );
}
