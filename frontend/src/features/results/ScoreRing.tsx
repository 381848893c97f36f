interface Props {
  score: number;
  total: number;
  percent: number;
}

const SIZE = 168;
const STROKE = 14;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The overall score as a ring: score/total and percent. */
export function ScoreRing({ score, total, percent }: Props) {
  const fraction = Math.max(0, Math.min(1, percent / 100));
  return (
    <svg className="score-ring" viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={`Score: ${score} out of ${total}, ${percent}%`}>
      <circle className="score-ring-track" cx={SIZE / 2} cy={SIZE / 2} r={RADIUS} fill="none" strokeWidth={STROKE} />
      <circle
        className="score-ring-value"
        cx={SIZE / 2}
        cy={SIZE / 2}
        r={RADIUS}
        fill="none"
        strokeWidth={STROKE}
        strokeLinecap="round"
        strokeDasharray={CIRCUMFERENCE}
        strokeDashoffset={CIRCUMFERENCE * (1 - fraction)}
        transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
      />
      <text className="score-ring-score" x="50%" y="47%" textAnchor="middle" aria-hidden="true">
        {score}/{total}
      </text>
      <text className="score-ring-percent" x="50%" y="64%" textAnchor="middle" aria-hidden="true">
        {percent}%
      </text>
    </svg>
  );
}
