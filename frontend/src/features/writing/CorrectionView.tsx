import type { Ref } from 'react';
import type { TefScore, WritingCorrection } from '@/shared/api/types';

/** '410 / 450', or 'moins de 181 / 450' under the CLB 4 floor (decisions §2: never invent a range). */
export function tefText(score: TefScore): string {
  return score.kind === 'score' ? `${score.value} / ${score.max}` : `moins de ${score.below} / ${score.max}`;
}

/** 'CLB 9', or 'CLB 3 ou moins'. */
export function clbLabel(clb: number): string {
  return clb <= 3 ? 'CLB 3 ou moins' : `CLB ${clb}`;
}

/** Paragraphs of a text separated by blank lines. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** The last correction of a section: score on both scales, CLB, corrections, corrected text, feedback. */
export function CorrectionView({ result, headingRef }: { result: WritingCorrection; headingRef?: Ref<HTMLHeadingElement> }) {
  const feedback = paragraphs(result.general_feedback);
  return (
    <section className="writing-result" aria-label={`Correction de la section ${result.section}`}>
      <h3 className="writing-result-title" tabIndex={-1} ref={headingRef}>
        Résultat de la correction
      </h3>
      <div className="writing-result-summary">
        <div className="card writing-result-score">
          <p className="writing-kicker">Score TEF estimé</p>
          <p className="writing-result-tef">{tefText(result.tefOld)}</p>
          <p className="writing-result-tef-new">
            {tefText(result.tefNew)} <span className="writing-muted">(échelle depuis décembre 2023)</span>
          </p>
        </div>
        <div className="card writing-result-level">
          <p className="writing-kicker">Niveau estimé</p>
          <p className="writing-result-clb">{clbLabel(result.clb_level)}</p>
          {result.clbText && <p className="writing-result-clb-text">{result.clbText}</p>}
        </div>
      </div>

      <h4 className="writing-result-heading">Commentaires généraux</h4>
      {feedback.length === 0 ? (
        <p className="writing-muted">Aucun commentaire.</p>
      ) : (
        <div className="writing-feedback">
          {feedback.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      )}

      <h4 className="writing-result-heading">Corrections ({result.corrections.length})</h4>
      {result.corrections.length === 0 ? (
        <p className="writing-result-none">Aucune erreur détectée.</p>
      ) : (
        <ol className="writing-corrections">
          {result.corrections.map((c, i) => (
            <li key={i} className="writing-correction">
              <p className="writing-correction-change">
                <del className="writing-original">
                  <span className="sr-only">Original : </span>
                  {c.original_phrase}
                </del>
                <span className="writing-arrow" aria-hidden="true">
                  →
                </span>
                <ins className="writing-corrected">
                  <span className="sr-only">Correction : </span>
                  {c.corrected_phrase}
                </ins>
              </p>
              {c.explanation && <p className="writing-correction-why">{c.explanation}</p>}
            </li>
          ))}
        </ol>
      )}

      <h4 className="writing-result-heading">Texte corrigé</h4>
      <div className="writing-corrected-text" lang="fr">
        {result.corrected_text}
      </div>

      <p className="writing-result-note">
        Ce score est une estimation : il est calculé à partir du nombre de corrections et de la longueur du texte, puis
        converti avec les tables d'équivalence d'IRCC. Ce n'est pas un résultat officiel du TEF Canada.
      </p>
    </section>
  );
}
