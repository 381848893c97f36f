import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp, testConfig } from '@/test/render';
import { Footer } from './Footer';

describe('Footer', () => {
  it('links the configured support address', () => {
    renderWithApp(<Footer />);
    expect(screen.getByRole('link', { name: testConfig.supportEmail })).toHaveAttribute(
      'href',
      `mailto:${testConfig.supportEmail}`,
    );
  });

  it('links the four configured social accounts in a new tab', () => {
    renderWithApp(<Footer />);
    const expected = {
      Facebook: testConfig.social.facebook,
      Instagram: testConfig.social.instagram,
      YouTube: testConfig.social.youtube,
      TikTok: testConfig.social.tiktok,
    };
    for (const [name, href] of Object.entries(expected)) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('shows the 2025 copyright and the independence note', () => {
    renderWithApp(<Footer />);
    expect(screen.getByText(/^© 2025 /)).toBeInTheDocument();
    expect(screen.getByText(/not affiliated with/)).toHaveTextContent('owner of the TEF Canada test');
  });
});
