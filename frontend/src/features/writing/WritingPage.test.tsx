import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meValue } from '@/test/render';
import { server } from '@/test/server';
import { correction, renderWriting, seed, serve, stored, topic, words } from './testUtils';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const textArea = (section: 'A' | 'B' = 'A') => screen.getByRole('textbox', { name: `Votre texte (Section ${section})` });
const submitButton = () => screen.getByRole('button', { name: /Soumettre pour Correction|Correction en cours/ });

async function openTopic(options?: Parameters<typeof renderWriting>[0]) {
  const view = renderWriting(options);
  await screen.findByRole('heading', { name: 'TEF CANADA - EXPRESSION ÉCRITE' });
  return view;
}

describe('WritingPage: loading the topic', () => {
  it('says which section is loading, then shows the task with its heading, prompt and article', async () => {
    serve();
    const user = userEvent.setup();
    renderWriting();
    expect(screen.getByRole('status')).toHaveTextContent('Chargement du sujet A...');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sujet 1 : Une trouvaille inattendue' })).toBeInTheDocument();
    const tabs = screen.getByRole('tablist');
    expect(within(tabs).getByRole('tab', { name: 'Section A' })).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'Section A' });
    expect(within(panel).getByRole('heading', { name: 'TEF CANADA - EXPRESSION ÉCRITE' })).toBeInTheDocument();
    expect(within(panel).getByText(topic.sectionA.prompt)).toBeInTheDocument();
    expect(within(panel).getByText(topic.sectionA.narrativeStart).tagName).toBe('BLOCKQUOTE');
    expect(within(panel).getByText("Extrait d'article de presse")).toBeInTheDocument();

    await user.click(within(tabs).getByRole('tab', { name: 'Section B' }));
    const b = screen.getByRole('tabpanel', { name: 'Section B' });
    expect(within(b).getByText(topic.sectionB.statement).tagName).toBe('BLOCKQUOTE');
    expect(within(b).getByText(topic.sectionB.prompt)).toBeInTheDocument();
    expect(screen.queryByRole('tabpanel', { name: 'Section A' })).not.toBeInTheDocument();
    expect(within(b).getByText('(entre 180 et 220 mots)')).toBeInTheDocument();
  });

  it('moves between the tabs with the arrow keys, and remembers the open one for the loading message', async () => {
    serve();
    const user = userEvent.setup();
    const { unmount } = await openTopic();
    screen.getByRole('tab', { name: 'Section A' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Section B' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Section B' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Section A' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Section B' })).toHaveFocus();
    unmount();
    renderWriting();
    expect(screen.getByRole('status')).toHaveTextContent('Chargement du sujet B...');
    expect(await screen.findByRole('tab', { name: 'Section B' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows a locked topic with a link to the plans, and an unknown one with a link back to the topics', async () => {
    server.use(
      http.get('/api/tests/writing/garden', () => HttpResponse.json({ error: 'Subscribe to unlock this test.' }, { status: 403 })),
      http.get('/api/tests/writing/nope', () => HttpResponse.json({ error: 'Not found.' }, { status: 404 })),
    );
    const { unmount } = renderWriting({ path: '/writing/garden' });
    expect(await screen.findByRole('heading', { name: 'Sujet réservé aux abonnés' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir les formules' })).toHaveAttribute('href', '/#pricing');
    unmount();
    renderWriting({ path: '/writing/nope' });
    expect(await screen.findByRole('heading', { name: 'Sujet introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retour aux sujets' })).toHaveAttribute('href', '/section/writing');
  });
});

describe('WritingPage: writing', () => {
  it('counts the words live', async () => {
    serve();
    const user = userEvent.setup();
    await openTopic();
    const panel = screen.getByRole('tabpanel', { name: 'Section A' });
    expect(within(panel).getByText('Mots : 0')).toBeInTheDocument();
    expect(within(panel).getByText('(entre 70 et 120 mots)')).toBeInTheDocument();
    await user.type(textArea(), 'Il était  une fois');
    expect(within(panel).getByText('Mots : 4')).toBeInTheDocument();
  });

  it('inserts a special character at the caret, replacing the selection, with capitals under Shift', async () => {
    serve();
    const user = userEvent.setup();
    await openTopic();
    const area = textArea() as HTMLTextAreaElement;
    await user.type(area, 'ete');
    area.setSelectionRange(0, 1);
    await user.click(screen.getByRole('button', { name: 'é' }));
    expect(area).toHaveValue('éte');
    expect(area).toHaveFocus();
    expect(area.selectionStart).toBe(1);
    expect(area.selectionEnd).toBe(1);

    area.setSelectionRange(2, 2);
    await user.click(screen.getByRole('button', { name: 'Maj (majuscules)' }));
    expect(screen.getByRole('button', { name: 'Maj (majuscules)' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'À' }));
    expect(area).toHaveValue('étÀe');
    expect(area.selectionStart).toBe(3);
    // Typing continues after the inserted character.
    await user.keyboard('x');
    expect(area).toHaveValue('étÀxe');
    await user.click(screen.getByRole('button', { name: 'Maj (majuscules)' }));
    await user.click(screen.getByRole('button', { name: 'œ' }));
    expect(area).toHaveValue('étÀxœe');
    await user.click(screen.getByRole('button', { name: '«' }));
    expect(area).toHaveValue('étÀxœ«e');
  });

  it('disables the button when the text is blank or out of range, and says why on hover or click until the text changes', async () => {
    serve();
    const user = userEvent.setup();
    await openTopic();
    const button = submitButton();
    const wrapper = button.parentElement as HTMLElement;
    expect(button).toBeDisabled();
    await user.hover(wrapper);
    expect(screen.getByText('Le texte ne peut pas être vide.')).toBeInTheDocument();

    await user.type(textArea(), 'Trop court');
    expect(screen.queryByText('Le texte ne peut pas être vide.')).not.toBeInTheDocument();
    expect(button).toBeDisabled();
    await user.click(wrapper);
    expect(screen.getByText('Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 2)')).toBeInTheDocument();
    await user.type(textArea(), ' encore');
    expect(screen.queryByText(/Votre texte doit contenir/)).not.toBeInTheDocument();

    fireEvent.change(textArea(), { target: { value: words(121) } });
    expect(button).toBeDisabled();
    await user.hover(wrapper);
    expect(screen.getByText('Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 121)')).toBeInTheDocument();

    fireEvent.change(textArea(), { target: { value: words(70) } });
    expect(button).toBeEnabled();
    await user.hover(wrapper);
    expect(screen.queryByText(/Votre texte doit contenir/)).not.toBeInTheDocument();

    // Section B has its own range.
    await user.click(screen.getByRole('tab', { name: 'Section B' }));
    fireEvent.change(textArea('B'), { target: { value: words(100) } });
    const b = screen.getByRole('tabpanel', { name: 'Section B' });
    const bButton = within(b).getByRole('button', { name: 'Soumettre pour Correction' });
    expect(bButton).toBeDisabled();
    await user.hover(bButton.parentElement as HTMLElement);
    expect(within(b).getByText('Section B: Votre texte doit contenir entre 180 et 220 mots. (Actuel: 100)')).toBeInTheDocument();
  });

  it('restores drafts, results and the open tab from this device', async () => {
    serve();
    seed({ drafts: { A: 'Mon brouillon A', B: 'Mon brouillon B' }, results: { A: null, B: correction({ section: 'B', corrections: [] }) }, active: 'B' });
    await openTopic();
    expect(textArea('B')).toHaveValue('Mon brouillon B');
    expect(screen.getByText('Aucune erreur détectée.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Section B (corrigée)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Section A' }));
    expect(textArea('A')).toHaveValue('Mon brouillon A');
    expect(screen.queryByRole('heading', { name: 'Résultat de la correction' })).not.toBeInTheDocument();
  });

  it('saves every change on this device', async () => {
    serve();
    const user = userEvent.setup();
    await openTopic();
    await user.type(textArea(), 'Bonjour');
    expect(stored()?.drafts.A).toBe('Bonjour');
    expect(stored()?.deadline).toBeGreaterThan(Date.now() + 3590_000);
  });
});

describe('WritingPage: the clock and the settings', () => {
  it('counts down from the stored deadline, red in the last minute', async () => {
    serve();
    seed({ deadline: Date.now() + 45 * 60_000 + 500 });
    const { unmount } = await openTopic();
    expect(screen.getByText('Temps Restant : 45:01')).toBeInTheDocument();
    expect(screen.getByText(/^Temps Restant/).parentElement).not.toHaveClass('is-urgent');
    unmount();
    seed({ deadline: Date.now() + 30_000 });
    await openTopic();
    expect(screen.getByText(/^Temps Restant : 00:[23]\d$/).parentElement).toHaveClass('is-urgent');
  });

  it('starts a fresh topic at 60:00 and ticks', async () => {
    serve();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await openTopic();
    expect(screen.getByText('Temps Restant : 60:00')).toBeInTheDocument();
    for (let i = 0; i < 3; i++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
    }
    expect(screen.getByText(/^Temps Restant : 59:5[67]$/)).toBeInTheDocument();
  });

  it('at 0 makes the texts read-only, but what is written can still be sent', async () => {
    const calls = serve();
    seed({ deadline: Date.now() - 1000, drafts: { A: words(80), B: '' } });
    const user = userEvent.setup();
    await openTopic();
    expect(screen.getByText('Temps Restant : 00:00')).toBeInTheDocument();
    expect(screen.getByText(/Le temps est écoulé\. Vos textes ne peuvent plus être modifiés/)).toBeInTheDocument();
    expect(textArea()).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'é' })).toBeDisabled();
    await user.click(submitButton());
    expect(await screen.findByText('Résultat de la correction')).toBeInTheDocument();
    expect(calls.corrections).toHaveLength(1);
  });

  it('sets the text size (12 to 30 px, 18 by default) and dark mode, and remembers both', async () => {
    serve();
    const user = userEvent.setup();
    const { unmount } = await openTopic();
    const slider = screen.getByRole('slider', { name: 'Taille du texte' });
    expect(slider).toHaveValue('18');
    expect(slider).toHaveAttribute('min', '12');
    expect(slider).toHaveAttribute('max', '30');
    expect(textArea()).toHaveStyle({ fontSize: '18px' });
    fireEvent.change(slider, { target: { value: '26' } });
    expect(textArea()).toHaveStyle({ fontSize: '26px' });
    expect(screen.getByText('26 px')).toBeInTheDocument();

    const dark = screen.getByRole('switch', { name: 'Mode sombre' });
    expect(dark).not.toBeChecked();
    await user.click(dark);
    expect(document.querySelector('.writing-page')).toHaveClass('is-dark');
    unmount();
    await openTopic();
    expect(screen.getByRole('slider', { name: 'Taille du texte' })).toHaveValue('26');
    expect(screen.getByRole('switch', { name: 'Mode sombre' })).toBeChecked();
    expect(document.querySelector('.writing-page')).toHaveClass('is-dark');
  });

  it('starts over after confirmation: drafts, corrections and the clock', async () => {
    serve();
    seed({ deadline: Date.now() + 600_000, drafts: { A: 'Brouillon', B: 'Autre' }, results: { A: correction(), B: null } });
    const user = userEvent.setup();
    await openTopic();
    await user.click(screen.getByRole('button', { name: 'Recommencer' }));
    const dialog = screen.getByRole('dialog', { name: 'Recommencer ce sujet ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(textArea()).toHaveValue('Brouillon');

    await user.click(screen.getByRole('button', { name: 'Recommencer' }));
    await user.click(screen.getByRole('button', { name: 'Tout effacer' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(textArea()).toHaveValue('');
    expect(screen.queryByText('Résultat de la correction')).not.toBeInTheDocument();
    expect(screen.getByText('Temps Restant : 60:00')).toBeInTheDocument();
    expect(stored()?.drafts).toEqual({ A: '', B: '' });
  });
});

describe('WritingPage: correction', () => {
  it('sends the text, shows the score on both scales, the CLB, the corrections and the feedback, and updates the credits', async () => {
    let release: () => void = () => undefined;
    const calls = serve(async (body) => {
      await new Promise<void>((r) => (release = r));
      return HttpResponse.json(correction({ section: body.section }));
    });
    const user = userEvent.setup();
    const { profile } = await openTopic({ me: meValue({ aiCredits: 3 }) });
    expect(screen.getByText('AI Analysis Credits: 3')).toBeInTheDocument();
    const text = `Les enfant jouaient a la plage. ${words(70)}`;
    fireEvent.change(textArea(), { target: { value: text } });
    await user.click(submitButton());
    expect(submitButton()).toHaveTextContent('Correction en cours...');
    expect(submitButton()).toBeDisabled();
    await waitFor(() => expect(calls.corrections).toHaveLength(1));
    expect(calls.corrections[0]).toEqual({ studentText: text, section: 'A', topicId: 'luckyFind' });
    release();

    const result = await screen.findByRole('region', { name: 'Correction de la section A' });
    expect(within(result).getByText('410 / 450')).toBeInTheDocument();
    expect(within(result).getByText(/540 \/ 699/)).toBeInTheDocument();
    expect(within(result).getByText('CLB 9')).toBeInTheDocument();
    expect(within(result).getByText('Vous écrivez avec aisance.')).toBeInTheDocument();
    expect(within(result).getByText('Corrections (1)')).toBeInTheDocument();
    expect(within(result).getByText('a la plage').closest('del')).not.toBeNull();
    expect(within(result).getByText('à la plage').closest('ins')).not.toBeNull();
    expect(within(result).getByText('La préposition « à » prend un accent.')).toBeInTheDocument();
    expect(within(result).getByText('Les enfants jouaient à la plage.')).toBeInTheDocument();
    expect(within(result).getByText('Bon début.')).toBeInTheDocument();
    expect(within(result).getByText('Attention aux accents.')).toBeInTheDocument();
    // Focus moves in an effect after the result is shown: under load, a moment later.
    await waitFor(() => expect(within(result).getByRole('heading', { name: 'Résultat de la correction' })).toHaveFocus());
    expect(screen.getByText('AI Analysis Credits: 2')).toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('Soumettre pour Correction');
    expect(profile.refresh).toHaveBeenCalled();
    expect(stored()?.results.A?.clb_level).toBe(9);
    // Section B has no correction of its own.
    await user.click(screen.getByRole('tab', { name: 'Section B' }));
    expect(screen.queryByRole('region', { name: /Correction de la section/ })).not.toBeInTheDocument();
  });

  it('says when there is nothing to correct, and shows a level below CLB 4 as such', async () => {
    serve(() =>
      HttpResponse.json(
        correction({
          corrections: [],
          clb_level: 3,
          tefOld: { kind: 'below', below: 181, max: 450 },
          tefNew: { kind: 'below', below: 268, max: 699 },
        }),
      ),
    );
    const user = userEvent.setup();
    await openTopic();
    fireEvent.change(textArea(), { target: { value: words(75) } });
    await user.click(submitButton());
    expect(await screen.findByText('Aucune erreur détectée.')).toBeInTheDocument();
    expect(screen.getByText('CLB 3 ou moins')).toBeInTheDocument();
    expect(screen.getByText('moins de 181 / 450')).toBeInTheDocument();
  });

  it.each([
    [400, 'Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 69)', 'Section A: Votre texte doit contenir entre 70 et 120 mots. (Actuel: 69)'],
    [401, 'Sign in first.', 'Vous devez être connecté.'],
    [402, 'You have used all your free AI analysis credits. Subscribe for unlimited corrections.', 'You have used all your free AI analysis credits. Subscribe for unlimited corrections.'],
    [403, 'Subscribe to unlock this topic.', 'Subscribe to unlock this topic.'],
    [413, 'The request is too large.', 'The request is too large.'],
    [429, 'You have reached the limit of 10 corrections per hour. Please try again later.', 'You have reached the limit of 10 corrections per hour. Please try again later.'],
    [500, 'Something went wrong on our side.', 'Erreur lors de la récupération de la correction. Veuillez réessayer.'],
    [502, 'The correction service failed.', 'Erreur lors de la récupération de la correction. Veuillez réessayer.'],
  ])('shows status %i as the learner should read it', async (status, error, shown) => {
    serve(() => HttpResponse.json({ error }, { status }));
    const user = userEvent.setup();
    await openTopic();
    fireEvent.change(textArea(), { target: { value: words(75) } });
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    // No credits, or a topic outside the plan: the plans are one click away.
    const plans = screen.queryByRole('link', { name: 'Voir les formules' });
    if (status === 402 || status === 403) expect(plans).toHaveAttribute('href', '/#pricing');
    else expect(plans).not.toBeInTheDocument();
    expect(screen.queryByText('Résultat de la correction')).not.toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
    // The message goes once the text changes.
    await user.type(textArea(), ' fin');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the generic message when the network fails', async () => {
    serve(() => HttpResponse.error());
    const user = userEvent.setup();
    await openTopic();
    fireEvent.change(textArea(), { target: { value: words(75) } });
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Erreur lors de la récupération de la correction. Veuillez réessayer.');
  });

  it('shows no credits line to a subscriber, nor after a correction that reports none', async () => {
    serve(async () => {
      await delay(10);
      return HttpResponse.json(correction({ aiCredits: null }));
    });
    const active = meValue({
      subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate: '2099-01-01T00:00:00Z', daysLeft: 30 },
    });
    const user = userEvent.setup();
    await openTopic({ me: active });
    expect(screen.queryByText(/AI Analysis Credits/)).not.toBeInTheDocument();
    fireEvent.change(textArea(), { target: { value: words(75) } });
    await user.click(submitButton());
    await screen.findByText('Résultat de la correction');
    expect(screen.queryByText(/AI Analysis Credits/)).not.toBeInTheDocument();
  });
});
