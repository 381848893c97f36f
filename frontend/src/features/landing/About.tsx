import { SKILL_AVAILABLE } from '@/shared/releases';
import testimonialsFile from '@content/testimonials.json';
import { checkTestimonials } from './testimonials';
import { Testimonials } from './Testimonials';

const FAQ = [
  {
    question: 'How realistic are the mock exams?',
    answer: [
      'Very close to the real thing. Every paper follows the current official structure of the TEF Canada: the same number of questions, the same timings and the same progression, from everyday documents to press articles in reading, and from short announcements to interviews in listening.',
      'All questions are original, written for this platform; nothing is copied from official papers. Your TEF score and CLB level are estimates based on the official IRCC equivalence tables, not official results.',
    ],
  },
  {
    question: 'How do the writing and speaking corrections work?',
    answer: [
      ...(SKILL_AVAILABLE.writing && SKILL_AVAILABLE.speaking
        ? []
        : ['Writing and speaking practice are not open yet: they are being built now. Here is how they will work.']),
      'For writing, an AI model reads your text and returns it corrected line by line: your original phrase, the corrected phrase and a short explanation of each change, with general feedback, an estimated TEF score and a CLB level.',
      'For speaking, you hold a timed role-play with the AI examiner, by voice or by typing. At the end you receive a written performance report with your estimated CLB and TEF level. The free plan includes 3 AI corrections for writing and 3 for speaking; paid plans are unlimited.',
    ],
  },
  {
    question: 'How does progress tracking work?',
    answer: [
      'Each test you finish saves your estimated CLB for that skill. The Results Tracker charts your recent sessions in listening, reading, speaking and writing, so you can see every skill move over time.',
      'Your overall CLB is the lowest of your four skills, the same way IRCC counts it, which tells you exactly where to focus next.',
    ],
  },
  {
    question: 'Do you add new content?',
    answer: [
      'Yes. We add new questions, writing topics and speaking scenarios regularly, and review existing ones as the exam evolves. Everything published during your access period is included at no extra cost.',
    ],
  },
];

// Supplied by the operator with each person's consent (content/testimonials.json); invalid entries are never shown.
const { testimonials: TESTIMONIALS } = checkTestimonials(testimonialsFile);

/** About: who it is for, the four FAQ items and, when there are any, what candidates say. */
export function About() {
  return (
    <section id="about" className="landing-section about" aria-labelledby="about-title">
      <div className="landing-container">
        <header className="section-header">
          <p className="section-eyebrow">About</p>
          <h2 id="about-title" className="section-title">
            Made for TEF Canada candidates
          </h2>
          <p className="section-lead">
            Whether you are after Express Entry points, a provincial nomination or citizenship, the TEF Canada rewards
            candidates who know the format and manage the clock. We give you realistic, timed practice and honest,
            detailed feedback, so exam day feels familiar.
          </p>
        </header>

        <div className="faq">
          <h3 className="subsection-title">Frequently asked questions</h3>
          {FAQ.map((item) => (
            <details key={item.question} className="faq-item">
              <summary>
                <span>{item.question}</span>
                <span className="faq-marker" aria-hidden="true" />
              </summary>
              <div className="faq-answer">
                {item.answer.map((para) => (
                  <p key={para}>{para}</p>
                ))}
              </div>
            </details>
          ))}
        </div>

        <Testimonials items={TESTIMONIALS} />
      </div>
    </section>
  );
}
