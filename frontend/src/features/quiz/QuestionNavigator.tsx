interface Props {
  total: number;
  current: number;
  answers: (number | null)[];
  onSelect: (index: number) => void;
  disabled?: boolean;
}

/** Every question as a numbered button: answered, unanswered, current (decisions §5). */
export function QuestionNavigator({ total, current, answers, onSelect, disabled = false }: Props) {
  const answered = answers.filter((a) => a !== null).length;
  return (
    <nav className="card quiz-navigator" aria-labelledby="quiz-navigator-title">
      <div className="quiz-navigator-head">
        <h2 id="quiz-navigator-title">Questions</h2>
        <p>
          {answered} of {total} answered
        </p>
      </div>
      <ol className="quiz-navigator-grid">
        {Array.from({ length: total }, (_, i) => {
          const isAnswered = answers[i] !== null && answers[i] !== undefined;
          const isCurrent = i === current;
          return (
            <li key={i}>
              <button
                type="button"
                className={`quiz-nav-button${isAnswered ? ' is-answered' : ''}${isCurrent ? ' is-current' : ''}`}
                aria-label={`Question ${i + 1}, ${isAnswered ? 'answered' : 'unanswered'}`}
                aria-current={isCurrent ? 'step' : undefined}
                disabled={disabled}
                onClick={() => onSelect(i)}
              >
                {i + 1}
              </button>
            </li>
          );
        })}
      </ol>
      <ul className="quiz-navigator-legend" aria-hidden="true">
        <li>
          <span className="quiz-legend-swatch is-answered" /> Answered
        </li>
        <li>
          <span className="quiz-legend-swatch" /> Unanswered
        </li>
        <li>
          <span className="quiz-legend-swatch is-current" /> Current
        </li>
      </ul>
    </nav>
  );
}
