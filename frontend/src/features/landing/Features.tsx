import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '@/shared/auth';
import { describeSkill, SKILL_AVAILABLE, type Skill } from '@/shared/releases';
import { ArrowRightIcon, ChartIcon, CheckIcon, MicIcon, SparkleIcon } from './icons';

interface Feature {
  id: 'progress' | 'corrections' | 'ai-speaking';
  /** The skill the feature needs, if it is not out yet. */
  skill?: Skill;
  eyebrow: string;
  icon: ReactNode;
  title: string;
  body: string;
  points: string[];
  link: { to: string; label: string; needsLogin: boolean };
  image: string;
  alt: string;
}

const FEATURES: Feature[] = [
  {
    id: 'progress',
    eyebrow: 'Progress tracker',
    icon: <ChartIcon size={20} />,
    title: 'Watch your CLB climb, skill by skill',
    body: 'Every mock exam you finish is saved to your Results Tracker. Follow your estimated CLB in listening, reading, speaking and writing across your recent sessions, and see your overall level: the lowest of the four, exactly as IRCC counts it.',
    points: [
      'One chart per skill, session after session',
      'Your overall CLB at a glance',
      'See which skill is holding your score back',
    ],
    // The tracker page explains and offers sign-in itself.
    link: { to: '/results-tracker', label: 'Open Results Tracker', needsLogin: false },
    image: '/illustrations/progress.svg',
    alt: 'A progress chart of estimated CLB levels rising from 5 to 8 over five sessions.',
  },
  {
    id: 'corrections',
    skill: 'writing',
    eyebrow: 'AI writing corrections',
    icon: <SparkleIcon size={20} />,
    title: 'Corrections that teach you, line by line',
    body: 'Submit your Section A article or your Section B letter and get it back corrected line by line. Every change comes with a short explanation, along with general feedback, an estimated TEF score and a CLB level.',
    points: [
      'Your phrase, the correction and the reason why',
      'Estimated TEF score and CLB level for each task',
      'French accent keyboard and live word count',
    ],
    link: { to: '/section/writing', label: 'Try an AI correction', needsLogin: true },
    image: '/illustrations/correction.svg',
    alt: 'A French sentence with a mistake struck through, the corrected phrase, and an explanation of the agreement rule.',
  },
  {
    id: 'ai-speaking',
    skill: 'speaking',
    eyebrow: 'AI speaking examiner',
    icon: <MicIcon size={20} />,
    title: 'Rehearse the oral exam out loud',
    body: 'Practise both speaking tasks with an AI examiner that stays in role: a formal call to ask about an advert (vous), then a friendly chat where you must convince a hesitant friend (tu). Speak into your microphone or type, then read your performance report.',
    points: [
      'Real timings: 5 minutes for Section A, 10 for Section B',
      'Answer by voice or by typing',
      'Written report with an estimated CLB and TEF level',
    ],
    link: { to: '/section/speaking', label: 'Practise with the AI examiner', needsLogin: true },
    image: '/illustrations/speaking.svg',
    alt: 'A role-play conversation in French between the candidate and the AI examiner about a language course.',
  },
];

/** 'reading, listening and writing': the skills open today, for the line on a feature that is not. */
function openSkills(): string {
  const open = (Object.keys(SKILL_AVAILABLE) as Skill[]).filter((s) => SKILL_AVAILABLE[s]);
  return open.length <= 1 ? open.join('') : `${open.slice(0, -1).join(', ')} and ${open[open.length - 1]}`;
}

/** The three feature stories: progress tracker, AI corrections, AI speaking examiner. */
export function Features() {
  const { isLoggedIn, login } = useAuth();

  // Visitors choosing a paper are asked to sign in first, then taken there (like the test cards).
  const guard = (link: Feature['link']) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (!link.needsLogin || isLoggedIn) return;
    e.preventDefault();
    void login(link.to);
  };

  return (
    <div className="features">
      {FEATURES.map((f, i) => (
        <section
          key={f.id}
          id={f.id}
          className={`landing-section feature${i % 2 === 1 ? ' feature-reverse' : ''}`}
          aria-labelledby={`${f.id}-title`}
        >
          <div className="landing-container feature-grid">
            <div className="feature-copy">
              <p className="section-eyebrow feature-eyebrow">
                <span className="feature-eyebrow-icon">{f.icon}</span>
                {f.skill ? describeSkill(f.skill, f.eyebrow) : f.eyebrow}
              </p>
              <h2 id={`${f.id}-title`} className="section-title">
                {f.title}
              </h2>
              <p className="feature-body">{f.body}</p>
              <ul className="check-list">
                {f.points.map((p) => (
                  <li key={p}>
                    <CheckIcon size={18} className="check-list-icon" />
                    {p}
                  </li>
                ))}
              </ul>
              {f.skill && !SKILL_AVAILABLE[f.skill] ? (
                <p className="feature-soon">Not open yet: {openSkills()} are ready to practise today.</p>
              ) : (
                <Link to={f.link.to} className="btn btn-primary feature-link" onClick={guard(f.link)}>
                  {f.link.label}
                  <ArrowRightIcon size={18} />
                </Link>
              )}
            </div>
            <div className="feature-visual">
              <img src={f.image} width="520" height="400" alt={f.alt} loading="lazy" decoding="async" />
            </div>
          </div>
        </section>
      ))}
    </div>
  );
}
