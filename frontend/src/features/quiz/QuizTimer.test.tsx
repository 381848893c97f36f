import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QuizTimer } from './QuizTimer';

describe('QuizTimer', () => {
  it('shows m:ss, then h:mm:ss over an hour', () => {
    const { rerender } = render(<QuizTimer remaining={2400} />);
    expect(screen.getByText('Time left: 40:00')).toBeInTheDocument();
    rerender(<QuizTimer remaining={3600} />);
    expect(screen.getByText('Time left: 1:00:00')).toBeInTheDocument();
  });

  it('is red at 60 seconds or less, and speaks only in the last minute', () => {
    const { container, rerender } = render(<QuizTimer remaining={61} />);
    const timer = container.querySelector('.quiz-timer');
    const live = container.querySelector('[aria-live]');
    expect(timer).not.toHaveClass('is-urgent');
    expect(live).toBeEmptyDOMElement();
    rerender(<QuizTimer remaining={60} />);
    expect(timer).toHaveClass('is-urgent');
    expect(live).toHaveTextContent('Less than one minute left.');
    rerender(<QuizTimer remaining={59} />);
    // Same words: nothing new is announced each second.
    expect(live).toHaveTextContent('Less than one minute left.');
    rerender(<QuizTimer remaining={9} />);
    expect(live).toHaveTextContent('Less than 10 seconds left.');
  });
});
