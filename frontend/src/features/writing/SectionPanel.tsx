import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { WritingCorrection, WritingSection, WritingTopic } from '@/shared/api/types';
import { AccentKeyboard } from './AccentKeyboard';
import { CorrectionView } from './CorrectionView';
import { countWords, validationMessage, WORD_LIMITS } from './words';

export const HEADING = 'TEF CANADA - EXPRESSION ÉCRITE';

/** Why the last correction request failed, as the learner reads it; `plans` when a plan is the way on. */
export interface CorrectionFailure {
  message: string;
  plans: boolean;
}

interface Props {
  section: WritingSection;
  topic: WritingTopic;
  text: string;
  onTextChange: (text: string) => void;
  result: WritingCorrection | null;
  /** The clock reached 0: the text can no longer change, but may still be sent. */
  timeUp: boolean;
  fontSize: number;
  running: boolean;
  /** The last correction request's failure. */
  error: CorrectionFailure | null;
  onSubmit: () => void;
}

/** The task's document: A, the beginning of a press article; B, the opinion to discuss. */
function TopicQuote({ section, topic }: { section: WritingSection; topic: WritingTopic }) {
  if (section === 'A') {
    return (
      <figure className="writing-article">
        <figcaption className="writing-article-label">Extrait d'article de presse</figcaption>
        <blockquote className="writing-article-text">{topic.sectionA.narrativeStart}</blockquote>
      </figure>
    );
  }
  return (
    <figure className="writing-statement">
      <figcaption className="writing-article-label">L'affirmation</figcaption>
      <blockquote className="writing-statement-text">{topic.sectionB.statement}</blockquote>
    </figure>
  );
}

/** One task: prompt, document, special characters, the text area, its word count, submission and correction. */
export function SectionPanel({ section, topic, text, onTextChange, result, timeUp, fontSize, running, error, onSubmit }: Props) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const caret = useRef<number | null>(null);
  const [hintShown, setHintShown] = useState(false);
  const ids = useId();
  const count = countWords(text);
  const { min, max } = WORD_LIMITS[section];
  const problem = validationMessage(section, text);
  const blocked = running || problem !== null;
  const prompt = section === 'A' ? topic.sectionA.prompt : topic.sectionB.prompt;

  const edit = (next: string) => {
    // Spec §4: a word-count message clears when the text is edited.
    setHintShown(false);
    onTextChange(next);
  };

  /** Puts `char` at the caret, in place of the selection if any; the caret then follows it. */
  const insert = (char: string) => {
    const area = textareaRef.current;
    if (!area || area.readOnly) return;
    const start = area.selectionStart;
    const end = area.selectionEnd;
    caret.current = start + char.length;
    edit(text.slice(0, start) + char + text.slice(end));
  };

  useLayoutEffect(() => {
    const area = textareaRef.current;
    if (caret.current === null || !area) return;
    area.focus();
    area.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text]);

  // A new correction: bring it into view, and take the reader to it.
  const shownId = useRef(result?.id ?? null);
  useEffect(() => {
    if (!result || result.id === shownId.current) return;
    shownId.current = result.id;
    const heading = resultRef.current;
    if (!heading) return;
    heading.focus({ preventScroll: true });
    const { top, bottom } = heading.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) heading.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [result]);

  const showHint = () => {
    if (problem !== null) setHintShown(true);
  };
  const inRange = count >= min && count <= max;

  return (
    <>
      <h2 className="writing-heading">{HEADING}</h2>
      <div className="writing-task">
        <p className="writing-task-label">Section {section}</p>
        <p className="writing-prompt">{prompt}</p>
        <TopicQuote section={section} topic={topic} />
      </div>

      <div className="writing-editor">
        <label className="writing-label" htmlFor={`${ids}-text`}>
          Votre texte (Section {section})
        </label>
        <AccentKeyboard onInsert={insert} disabled={timeUp} />
        <textarea
          id={`${ids}-text`}
          ref={textareaRef}
          className="writing-textarea"
          style={{ fontSize: `${fontSize}px` }}
          value={text}
          onChange={(e) => edit(e.target.value)}
          readOnly={timeUp}
          aria-describedby={`${ids}-count`}
          lang="fr"
          spellCheck={false}
          rows={section === 'A' ? 10 : 14}
          placeholder={section === 'A' ? 'Continuez l’article ici…' : 'Rédigez votre lettre ici…'}
        />
        <p className="writing-count" id={`${ids}-count`}>
          <span className={`writing-count-value${count > 0 ? (inRange ? ' is-ok' : ' is-out') : ''}`}>Mots : {count}</span>
          <span className="writing-count-range">
            (entre {min} et {max} mots)
          </span>
        </p>

        <div className="writing-submit-row">
          <span
            className="writing-submit-wrap"
            onMouseEnter={showHint}
            onClick={showHint}
            onFocus={showHint}
            // A disabled button is not focusable: the wrapper takes its place in the tab order, so the reason can be read.
            tabIndex={blocked && !running ? 0 : undefined}
            aria-describedby={hintShown && problem ? `${ids}-hint` : undefined}
          >
            <button type="button" className="btn btn-accent" disabled={blocked} aria-busy={running || undefined} onClick={onSubmit}>
              {running && <span className="btn-spinner" aria-hidden="true" />}
              {running ? 'Correction en cours...' : 'Soumettre pour Correction'}
            </button>
          </span>
          {hintShown && problem && (
            <p className="writing-hint" id={`${ids}-hint`} role="status">
              {problem}
            </p>
          )}
        </div>
        {error && (
          <div className="writing-error">
            <p className="error-text" role="alert">
              {error.message}
            </p>
            {error.plans && (
              <Link to="/#pricing" className="btn btn-secondary btn-sm">
                Voir les formules
              </Link>
            )}
          </div>
        )}
      </div>

      {result && <CorrectionView result={result} headingRef={resultRef} />}
    </>
  );
}
