import type { Testimonial } from './testimonials';

/** 'What candidates say': real testimonials only, each with consent (decisions §7). Nothing while there are none. */
export function Testimonials({ items }: { items: readonly Testimonial[] }) {
  if (items.length === 0) return null;
  return (
    <div className="testimonials">
      <h3 className="subsection-title">What candidates say</h3>
      <ul className="testimonial-grid">
        {items.map((t) => (
          <li key={`${t.name}|${t.quote}`}>
            <figure className="testimonial">
              <blockquote lang={t.lang}>
                <p>{t.quote}</p>
              </blockquote>
              <figcaption>
                <span className="testimonial-name">{t.name}</span>
                <span className="testimonial-source">
                  {t.sourceUrl ? (
                    <a href={t.sourceUrl} target="_blank" rel="noopener noreferrer nofollow">
                      {t.platform}
                    </a>
                  ) : (
                    t.platform
                  )}
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </div>
  );
}
