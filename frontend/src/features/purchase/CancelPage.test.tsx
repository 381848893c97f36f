import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { CancelPage } from './CancelPage';

describe('CancelPage', () => {
  it("says the purchase was cancelled, in the spec's words, with a link home and back to the plans", () => {
    renderWithApp(<CancelPage />, { path: '/cancel' });
    expect(screen.getByRole('heading', { name: 'Purchase Cancelled', level: 1 })).toBeInTheDocument();
    expect(
      screen.getByText('Your purchase was cancelled. If you have any questions, please contact our support team.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No payment was taken.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/#pricing');
  });
});
