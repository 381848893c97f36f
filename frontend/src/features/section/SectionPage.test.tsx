import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render';
import { parseCategory } from './categories';
import { SectionPage } from './SectionPage';

const routes = [{ path: '/section/:category', element: <SectionPage /> }];

describe('SectionPage', () => {
  it('trims and lower-cases the category', () => {
    expect(parseCategory('  Reading ')).toBe('reading');
    expect(parseCategory('maths')).toBeNull();
    expect(parseCategory(undefined)).toBeNull();
  });

  it('shows the intro pill, title and explainer', () => {
    renderWithApp(<></>, { path: '/section/LISTENING', routes });
    expect(screen.getByText('Listening Section')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Listening Tests' })).toBeInTheDocument();
    expect(screen.getByText('Each audio is heard once, as in the exam.')).toBeInTheDocument();
  });

  it('refuses an invalid category', () => {
    renderWithApp(<></>, { path: '/section/maths', routes });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Error: The category value is invalid. Please check your navigation link.',
    );
  });
});
