import { Link } from 'react-router';
import { CheckIcon } from './icons';

const HIGHLIGHTS = [
  '10 timed mock exams per skill',
  'TEF score and CLB estimate after every test',
  'AI feedback on your writing and speaking',
];

/** The opening section: promise, main call to action and a preview of the exam screen. */
export function Hero() {
  return (
    <section id="home" className="hero" aria-labelledby="hero-title">
      <div className="landing-container hero-grid">
        <div className="hero-copy">
          <p className="hero-eyebrow">
            <span className="hero-eyebrow-dot" aria-hidden="true" />
            TEF Canada practice for Express Entry and citizenship
          </p>
          <h1 id="hero-title" className="hero-title">
            Prepare for Your TEF Exam with Confidence
          </h1>
          <p className="hero-lead">
            Realistic, timed mock exams in reading, listening, writing and speaking, built on the current TEF Canada
            format. Know your estimated score and CLB level after every test, then fix exactly what holds you back.
          </p>
          <div className="hero-actions">
            <Link to="/#test-categories" className="btn btn-accent btn-lg">
              Try a free test
            </Link>
            <Link to="/#pricing" className="btn btn-lg hero-secondary">
              See plans
            </Link>
          </div>
          <p className="hero-note">Free to start. No credit card needed.</p>
          <ul className="hero-highlights">
            {HIGHLIGHTS.map((h) => (
              <li key={h}>
                <CheckIcon size={18} className="hero-check" />
                {h}
              </li>
            ))}
          </ul>
        </div>
        <div className="hero-visual">
          <img
            src="/illustrations/hero-exam.svg"
            width="560"
            height="470"
            alt="Preview of a reading mock exam: question 12 of 40 with a countdown timer, and a result card showing an estimated CLB 8."
          />
        </div>
      </div>
    </section>
  );
}
