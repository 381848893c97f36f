import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useConfig, type SocialLinks } from '@/shared/config';
import { BrandMark, PRODUCT_NAME } from './BrandMark';
import './footer.css';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="social-icon" width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

const SOCIAL: { key: keyof SocialLinks; label: string; icon: ReactNode }[] = [
  {
    key: 'facebook',
    label: 'Facebook',
    icon: (
      <Icon>
        <path
          fill="currentColor"
          d="M13.6 21v-7.6h2.6l.4-3h-3V8.5c0-.9.3-1.5 1.6-1.5h1.6V4.3c-.3 0-1.2-.1-2.3-.1-2.3 0-3.9 1.4-3.9 4v2.2H8v3h2.6V21h3Z"
        />
      </Icon>
    ),
  },
  {
    key: 'instagram',
    label: 'Instagram',
    icon: (
      <Icon>
        <rect x="3.5" y="3.5" width="17" height="17" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="12" cy="12" r="3.8" fill="none" stroke="currentColor" strokeWidth="2" />
        <circle cx="17.2" cy="6.8" r="1.2" fill="currentColor" />
      </Icon>
    ),
  },
  {
    key: 'youtube',
    label: 'YouTube',
    icon: (
      <Icon>
        <path
          fill="currentColor"
          fillRule="evenodd"
          d="M6 5h12a4 4 0 0 1 4 4v6a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V9a4 4 0 0 1 4-4Zm4 3.8v6.4l5.4-3.2L10 8.8Z"
        />
      </Icon>
    ),
  },
  {
    key: 'tiktok',
    label: 'TikTok',
    icon: (
      <Icon>
        <path
          fill="currentColor"
          d="M16.3 3c.3 2.1 1.6 3.6 3.7 3.9v3.1a7 7 0 0 1-3.7-1.2v6.4A5.8 5.8 0 1 1 10.5 9.4v3.2a2.7 2.7 0 1 0 2.7 2.6V3h3.1Z"
        />
      </Icon>
    ),
  },
];

/** The footer on every page (spec §2): support address, social links, copyright 2025 and the independence note. */
export function Footer() {
  const { supportEmail, social } = useConfig();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div className="footer-top">
          <div className="footer-brand">
            <Link to="/" className="footer-brand-link">
              <BrandMark size={28} />
              <span>{PRODUCT_NAME}</span>
            </Link>
            <p className="footer-tagline">
              Timed TEF Canada mock exams, honest CLB estimates and AI feedback that shows you exactly what to fix
              before exam day.
            </p>
          </div>

          <div className="footer-col">
            <h2 className="footer-heading">Practice</h2>
            <ul>
              <li>
                <Link to="/#test-categories">Mock exams</Link>
              </li>
              <li>
                <Link to="/#pricing">Plans</Link>
              </li>
              <li>
                <Link to="/#about">FAQ</Link>
              </li>
            </ul>
          </div>

          <div className="footer-col">
            <h2 className="footer-heading">Contact</h2>
            <p className="footer-contact">
              Questions, refunds or feedback? Write to us at{' '}
              <a href={`mailto:${supportEmail}`} className="footer-email">
                {supportEmail}
              </a>
              .
            </p>
            <ul className="social-links">
              {SOCIAL.map(({ key, label, icon }) => (
                <li key={key}>
                  <a href={social[key]} aria-label={label} title={label} target="_blank" rel="noopener noreferrer">
                    {icon}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="footer-bottom">
          <p className="footer-disclaimer">
            {PRODUCT_NAME} is an independent, educational practice service. It is not affiliated with, endorsed by or
            connected to the owner of the TEF Canada test (Le français des affaires, CCI Paris Île-de-France),
            Immigration, Refugees and Citizenship Canada, or any official testing body. Scores and CLB levels shown here
            are estimates, not official results.
          </p>
          <p className="footer-copyright">© 2025 {PRODUCT_NAME}. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}
