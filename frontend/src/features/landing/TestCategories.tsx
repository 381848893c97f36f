import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '@/shared/auth';
import { SKILL_AVAILABLE } from '@/shared/releases';
import { ArrowRightIcon, BookIcon, ChatIcon, HeadphonesIcon, PenIcon } from './icons';

type Section = 'reading' | 'listening' | 'writing' | 'speaking';

interface TestCard {
  section: Section;
  title: string;
  french: string;
  facts: [string, string];
  description: string;
  icon: ReactNode;
}

const CARDS: TestCard[] = [
  {
    section: 'reading',
    title: 'Reading',
    french: 'Compréhension écrite',
    facts: ['40 questions', '60 min'],
    description:
      'Everyday documents, ads, charts, workplace notices and press articles, getting harder question by question, just like the real paper.',
    icon: <BookIcon size={26} />,
  },
  {
    section: 'listening',
    title: 'Listening',
    french: 'Compréhension orale',
    facts: ['40 questions', '40 min'],
    description:
      'Announcements, voicemails, street interviews and radio in natural spoken French. Each audio is heard once, as on exam day.',
    icon: <HeadphonesIcon size={26} />,
  },
  {
    section: 'writing',
    title: 'Writing',
    french: 'Expression écrite',
    facts: ['2 tasks', '60 min'],
    description:
      'Finish a news article, then argue your point in a letter. Your AI correction explains every mistake and estimates your CLB.',
    icon: <PenIcon size={26} />,
  },
  {
    section: 'speaking',
    title: 'Speaking',
    french: 'Expression orale',
    facts: ['2 tasks', '15 min'],
    description:
      'Ask for information, then convince a hesitant friend, in a live role-play with an AI examiner, by voice or by typing.',
    icon: <ChatIcon size={26} />,
  },
];

function Card({ card, isLoggedIn, onOpen }: { card: TestCard; isLoggedIn: boolean; onOpen: (s: Section) => void }) {
  // The button's name is its visible text (title, French name, facts, description), so what a
  // speech-input user reads is what they can say (axe: label-content-name-mismatch).
  return (
    <li>
      <button
        type="button"
        className={`test-card test-card-${card.section}`}
        onClick={() => onOpen(card.section)}
      >
        <span className="test-card-icon">{card.icon}</span>
        <span className="test-card-title">
          {card.title}
        </span>{' '}
        <span className="test-card-french" lang="fr">
          {card.french}
        </span>{' '}
        <span className="test-card-desc">
          <span className="test-card-facts">
            <span className="test-card-fact">{card.facts[0]}</span>{' '}
            <span className="test-card-fact">{card.facts[1]}</span>
          </span>{' '}
          <span className="test-card-text">{card.description}</span>
        </span>
        <span className="test-card-cta" aria-hidden="true">
          {!SKILL_AVAILABLE[card.section] ? 'Coming soon' : isLoggedIn ? 'Start practising' : 'Sign in to start'}
          <ArrowRightIcon size={18} />
        </span>
      </button>
    </li>
  );
}

/** 'Choose Your Test': one card per paper. Visitors are asked to sign in, then land on the section they chose. */
export function TestCategories() {
  const { isLoggedIn, login } = useAuth();
  const navigate = useNavigate();

  const open = (section: Section) => {
    const path = `/section/${section}`;
    if (isLoggedIn) void navigate(path);
    else void login(path);
  };

  return (
    <section id="test-categories" className="landing-section test-categories" aria-labelledby="tests-title">
      <div className="landing-container">
        <header className="section-header">
          <p className="section-eyebrow">Mock exams</p>
          <h2 id="tests-title" className="section-title">
            Choose Your Test
          </h2>
          <p className="section-lead">
            Each paper follows the structure, timing and question types of the real TEF Canada. Your first mock exam
            in every section is free: sign in and start in seconds.
          </p>
        </header>
        <ul className="test-grid">
          {CARDS.map((card) => (
            <Card key={card.section} card={card} isLoggedIn={isLoggedIn} onOpen={open} />
          ))}
        </ul>
      </div>
    </section>
  );
}
