import type { SpeakingReport, TefScore } from '@/shared/api/types';

/** The report's level lines ('Score :', 'Niveau CLB Estimé', 'Niveau TEF Estimé'), shown highlighted. */
const HIGHLIGHT = /^\s*(score\s*:|niveau\s+(clb|tef)\b)/i;

export function isHighlighted(line: string): boolean {
  return HIGHLIGHT.test(line);
}

function tefText(score: TefScore): string {
  return score.kind === 'score' ? `${score.value} / ${score.max}` : `moins de ${score.below} / ${score.max}`;
}

/** The performance report: its text line by line, the level lines highlighted, and a summary. */
export function ReportView({ result }: { result: SpeakingReport }) {
  const lines = result.report.split('\n');
  return (
    <div className="speaking-report">
      <dl className="speaking-report-summary">
        <div>
          <dt>Niveau CLB</dt>
          <dd>{result.clb_level <= 3 ? 'CLB 3 ou moins' : `CLB ${result.clb_level}`}</dd>
        </div>
        <div>
          <dt>Niveau TEF</dt>
          <dd>{result.tef_level}</dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>{result.score} / 450</dd>
        </div>
        <div>
          <dt>Échelle 0–699</dt>
          <dd>{tefText(result.tefNew)}</dd>
        </div>
      </dl>
      <div className="speaking-report-text">
        {lines.map((line, i) =>
          line.trim() === '' ? (
            <br key={i} />
          ) : isHighlighted(line) ? (
            <p key={i}>
              <mark className="speaking-report-key">{line}</mark>
            </p>
          ) : (
            <p key={i}>{line}</p>
          ),
        )}
      </div>
      <p className="speaking-report-note">
        Ces niveaux sont des estimations, rapportées aux tables d'équivalence d'IRCC. Ce ne sont pas des résultats officiels du TEF
        Canada.
      </p>
    </div>
  );
}
