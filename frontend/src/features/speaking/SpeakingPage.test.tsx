import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { meValue } from '@/test/render';
import { server } from '@/test/server';
import {
  MIC_DENIED,
  MIC_NOT_FOUND,
  MIC_OTHER,
  microphoneError,
  RECORDING_UNSUPPORTED,
  TRANSCRIPTION_FAILED,
} from './messages';
import { isHighlighted } from './ReportView';
import { catalogue, exchanges, fakeMicrophone, noMicrophone, renderSpeaking, reportOf, seed, serve, storageKey, topic } from './testUtils';

let scrollTo: MockInstance<typeof window.scrollTo>;
let play: MockInstance<HTMLMediaElement['play']>;
let pause: MockInstance<HTMLMediaElement['pause']>;
const mediaDevices = Object.getOwnPropertyDescriptor(navigator, 'mediaDevices');

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  if (mediaDevices) Object.defineProperty(navigator, 'mediaDevices', mediaDevices);
  else delete (navigator as { mediaDevices?: unknown }).mediaDevices;
});

const input = () => screen.getByRole('textbox', { name: 'Votre message' });
const sendButton = () => screen.getByRole('button', { name: 'Envoyer' });
const micButton = () => screen.getByRole('button', { name: 'Parler (enregistrer)' });
const log = () => screen.getByRole('list', { name: 'Conversation' });

async function open(options?: Parameters<typeof renderSpeaking>[0]) {
  const view = renderSpeaking(options);
  await screen.findByRole('heading', { level: 1, name: topic.title });
  return view;
}

function say(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.click(sendButton());
  return Promise.resolve();
}

describe('SpeakingPage: the topic', () => {
  it('shows the loading line, then the title, document, banner, clock, counter, questions and credits', async () => {
    serve();
    renderSpeaking();
    expect(screen.getByRole('status')).toHaveTextContent('Chargement du sujet...');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cours de langue du soir' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalled();
    const doc = screen.getByText(/Cours d'espagnol du soir/);
    expect(doc.textContent).toBe(topic.sectionA.documentContent);
    expect(getComputedStyle(doc).whiteSpace === 'pre-line' || doc.className.includes('speaking-document-text')).toBe(true);
    expect(screen.getByText(topic.sectionA.bannerTitle)).toBeInTheDocument();
    expect(screen.getByText('Temps restant : 5:00')).toBeInTheDocument();
    expect(screen.getByText('Tour de parole (utilisateur) : 0 / 10')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Questions suggérées' })).toHaveDisplayValue('Choisissez une question...');
    expect(screen.getByText('Speaking Practice Credits left: 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Feedback de Performance' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Section A' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Section B' })).toBeEnabled();
    // The system message is never shown.
    expect(within(log()).queryByText(topic.sectionA.bannerTitle)).not.toBeInTheDocument();
  });

  it('shows "Titre non disponible" and "Contenu non disponible." for missing fields', async () => {
    server.use(http.get('/api/tests/speaking/bare', () => HttpResponse.json({ id: 'bare', number: 3, sectionA: {}, sectionB: {} })));
    renderSpeaking({ path: '/speaking/bare' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Titre non disponible' })).toBeInTheDocument();
    expect(screen.getByText('Contenu non disponible.')).toBeInTheDocument();
  });

  it('replaces an unknown topic with the first open one, and shows the placeholder when there is none', async () => {
    serve();
    server.use(http.get('/api/tests/speaking/nope', () => HttpResponse.json({ error: 'Not found.' }, { status: 404 })));
    catalogue([
      { id: 1, slug: 'serviceCoursLangue', title: 'Cours de langue du soir', locked: false, available: true },
      { id: 2, slug: 'evenementFestivalArtistique', title: 'Festival', locked: true, available: true },
    ]);
    const { router, unmount } = renderSpeaking({ path: '/speaking/nope' });
    expect(await screen.findByRole('heading', { level: 1, name: topic.title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/speaking/serviceCoursLangue');
    unmount();

    catalogue([{ id: 2, slug: 'evenementFestivalArtistique', title: 'Festival', locked: true, available: true }]);
    renderSpeaking({ path: '/speaking/nope' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Erreur' })).toBeInTheDocument();
    expect(screen.getByText('Aucun sujet de conversation disponible.')).toBeInTheDocument();
  });

  it('shows a locked topic with a link to the plans', async () => {
    server.use(http.get('/api/tests/speaking/usedCarForSale', () => HttpResponse.json({ error: 'Subscribe to unlock this test.' }, { status: 403 })));
    renderSpeaking({ path: '/speaking/usedCarForSale' });
    expect(await screen.findByRole('heading', { name: 'Sujet réservé aux abonnés' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir les formules' })).toHaveAttribute('href', '/#pricing');
  });
});

describe('SpeakingPage: the conversation', () => {
  it('fills the input from a suggested question, switches the button from microphone to send, and sends the turn', async () => {
    const calls = serve();
    const user = userEvent.setup();
    await open();
    expect(micButton()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Envoyer' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Questions suggérées' }), 'Combien coûte le cours ?');
    expect(input()).toHaveValue('Combien coûte le cours ?');
    expect(screen.queryByRole('button', { name: 'Parler (enregistrer)' })).not.toBeInTheDocument();
    await user.click(sendButton());

    expect(await within(log()).findByText('Réponse 1.')).toBeInTheDocument();
    const items = within(log()).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('VousCombien coûte le cours ?');
    expect(items[1]).toHaveTextContent('ExaminateurRéponse 1.');
    expect(screen.getByText('Tour de parole (utilisateur) : 1 / 10')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(micButton()).toBeInTheDocument();

    expect(calls.chats).toHaveLength(1);
    const [body] = calls.chats;
    expect(body?.topicId).toBe('serviceCoursLangue');
    expect(body?.section).toBe('A');
    expect(body?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body?.messages).toEqual([{ role: 'user', content: 'Combien coûte le cours ?' }]);
  });

  it('does not send blank messages', async () => {
    const calls = serve();
    const user = userEvent.setup();
    await open();
    await user.type(input(), '   ');
    expect(micButton()).toBeInTheDocument();
    await user.type(input(), '{Enter}');
    expect(calls.chats).toHaveLength(0);
    expect(screen.getByText('Tour de parole (utilisateur) : 0 / 10')).toBeInTheDocument();
  });

  it('ends at the tenth turn: banner, input disabled, the report requested once and shown, the profile refreshed', async () => {
    const calls = serve();
    const { profile } = await open();
    for (let i = 1; i <= 10; i++) {
      await say(`Question ${i} ?`);
      await within(log()).findByText(new RegExp(`^Réponse ${i}\\.`));
    }
    expect(screen.getByText('Tour de parole (utilisateur) : 10 / 10')).toBeInTheDocument();
    expect(screen.getByText("SESSION TERMINÉE. Vous avez atteint le nombre maximum d'échanges.")).toBeInTheDocument();
    expect(within(log()).getByText(/^Réponse 10\./).textContent).toBe('Réponse 10.\n\nSESSION TERMINÉE.');
    expect(input()).toBeDisabled();
    expect(input()).toHaveAttribute('placeholder', 'Session terminée.');

    const panel = screen.getByRole('region', { name: 'Feedback de Performance' });
    expect(await within(panel).findByText('Score : 330/450')).toBeInTheDocument();
    expect(within(panel).getByText('Score : 330/450').tagName).toBe('MARK');
    expect(within(panel).getByText('Niveau CLB Estimé : 7').tagName).toBe('MARK');
    expect(within(panel).getByText('Points forts : questions claires.').tagName).toBe('P');
    expect(screen.getByText('Speaking Practice Credits left: 2')).toBeInTheDocument();
    await waitFor(() => expect(profile.refresh).toHaveBeenCalled());
    expect(calls.reports).toHaveLength(1);
    expect(calls.reports[0]?.conversationHistory).toHaveLength(20);
    expect(calls.reports[0]?.sessionId).toBe(calls.chats[0]?.sessionId);
    // Nothing more can be sent.
    fireEvent.change(input(), { target: { value: 'Encore ?' } });
    expect(sendButton()).toBeDisabled();
    expect(calls.chats).toHaveLength(10);
  });

  it('ends when the clock reaches 0, with the report of the turns so far', async () => {
    const calls = serve();
    seed({ messages: exchanges(2), remaining: 2 });
    await open();
    expect(screen.getByText('Temps restant : 0:02')).toBeInTheDocument();
    expect(await screen.findByText("SESSION TERMINÉE. Vous avez atteint le nombre maximum d'échanges.", {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByText('Temps restant : 0:00')).toBeInTheDocument();
    await screen.findByText('Score : 330/450');
    expect(calls.reports).toHaveLength(1);
    expect(calls.reports[0]?.sessionId).toBe('seeded-session-1');
  });

  it('says "Génération du rapport..." while the report runs, and keeps the section switch disabled', async () => {
    serve({
      report: async () => {
        await delay(200);
        return HttpResponse.json(reportOf());
      },
    });
    seed({ messages: exchanges(9) });
    await open();
    await say('Dernière question ?');
    expect(await screen.findByText('Génération du rapport...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Section B' })).toBeDisabled();
    await screen.findByText('Score : 330/450');
    expect(screen.getByRole('button', { name: 'Section B' })).toBeEnabled();
  });

  it('resets everything when the section changes, with a new session id', async () => {
    const calls = serve();
    const user = userEvent.setup();
    await open();
    await say('Bonjour ?');
    await within(log()).findByText('Réponse 1.');
    fireEvent.change(input(), { target: { value: 'brouillon' } });
    await user.click(screen.getByRole('button', { name: 'Section B' }));

    expect(screen.getByRole('button', { name: 'Section B' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Section A' })).toBeEnabled();
    expect(screen.getByText('Tour de parole (utilisateur) : 0 / 10')).toBeInTheDocument();
    expect(screen.getByText('Temps restant : 10:00')).toBeInTheDocument();
    expect(screen.getByText(topic.sectionB.bannerTitle)).toBeInTheDocument();
    expect(screen.getByText(topic.sectionB.documentContent)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Questions suggérées' })).not.toBeInTheDocument();
    expect(within(log()).queryByText('Réponse 1.')).not.toBeInTheDocument();
    expect(input()).toHaveValue('');

    await say('Salut, tu viens ?');
    await within(log()).findByText('Réponse 1.');
    expect(calls.chats[1]?.section).toBe('B');
    expect(calls.chats[1]?.sessionId).not.toBe(calls.chats[0]?.sessionId);
    expect(calls.chats[1]?.messages).toEqual([{ role: 'user', content: 'Salut, tu viens ?' }]);
  });

  it('keeps the conversation and the clock across a reload', async () => {
    serve();
    const { unmount } = await open();
    await say('Bonjour ?');
    await within(log()).findByText('Réponse 1.');
    unmount();
    await open();
    expect(within(log()).getByText('Réponse 1.')).toBeInTheDocument();
    expect(screen.getByText('Tour de parole (utilisateur) : 1 / 10')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(storageKey) ?? '{}')).toMatchObject({ section: 'A', ended: false });
  });
});

describe('SpeakingPage: credits', () => {
  it('hides the credits line for subscribers', async () => {
    serve();
    await open({
      me: meValue({ subscription: { status: 'active', label: 'Active', plan: 'monthly', endDate: '2099-01-01T00:00:00Z', daysLeft: 30 } }),
    });
    expect(screen.queryByText(/Speaking Practice Credits left/)).not.toBeInTheDocument();
    expect(input()).toBeEnabled();
  });

  it('disables the input with "Crédits épuisés." at 0', async () => {
    const calls = serve();
    await open({ me: meValue({ speakingCredits: 0 }) });
    expect(screen.getByText('Speaking Practice Credits left: 0')).toBeInTheDocument();
    expect(input()).toBeDisabled();
    expect(input()).toHaveAttribute('placeholder', 'Crédits épuisés.');
    expect(micButton()).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Voir les formules' })).toHaveAttribute('href', '/#pricing');
    expect(calls.chats).toHaveLength(0);
  });
});

describe('SpeakingPage: failures', () => {
  it('turns a failed reply into the spec text', async () => {
    serve({ chat: () => HttpResponse.json({ error: 'The examiner is unavailable.' }, { status: 502 }) });
    await open();
    await say('Bonjour ?');
    expect(await within(log()).findByText('Erreur lors de la génération de la réponse IA.')).toBeInTheDocument();
    expect(screen.getByText('Tour de parole (utilisateur) : 1 / 10')).toBeInTheDocument();
  });

  it('shows the server text of a refused turn, gives the text back and does not count it', async () => {
    serve({ chat: () => HttpResponse.json({ error: 'Un message est trop long.' }, { status: 400 }) });
    await open();
    await say('Bonjour ?');
    expect(await screen.findByRole('alert')).toHaveTextContent('Un message est trop long.');
    expect(input()).toHaveValue('Bonjour ?');
    expect(screen.getByText('Tour de parole (utilisateur) : 0 / 10')).toBeInTheDocument();
  });

  it('shows the report failure text, and tries again with the same session', async () => {
    let fail = true;
    const calls = serve({
      report: () => (fail ? HttpResponse.json({ error: 'boom' }, { status: 502 }) : HttpResponse.json(reportOf())),
    });
    seed({ messages: exchanges(10), ended: true });
    const user = userEvent.setup();
    await open();
    expect(await screen.findByText('Erreur lors de la génération du rapport de performance.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Réessayer' }));
    await screen.findByText('Score : 330/450');
    expect(calls.reports.map((r) => r.sessionId)).toEqual(['seeded-session-1', 'seeded-session-1']);
  });

  it('shows "Crédits épuisés." when the report is refused for credits', async () => {
    serve({ report: () => HttpResponse.json({ error: 'Crédits épuisés.' }, { status: 402 }) });
    seed({ messages: exchanges(10), ended: true });
    await open();
    const panel = screen.getByRole('region', { name: 'Feedback de Performance' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Crédits épuisés.');
  });
});

describe('SpeakingPage: the examiner’s voice', () => {
  it('speaks each reply, and shows the banner when speech fails', async () => {
    let fail = false;
    const calls = serve({
      speech: () => (fail ? HttpResponse.json({ error: 'no voice' }, { status: 502 }) : HttpResponse.json({ audioUrl: '/media/speech/1.wav?sig=x' })),
    });
    await open();
    await say('Bonjour ?');
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1));
    expect(calls.speech).toEqual([{ text: 'Réponse 1.', section: 'A' }]);
    expect(document.querySelector('audio')?.getAttribute('src')).toBe('/media/speech/1.wav?sig=x');

    fail = true;
    await say('Et le prix ?');
    expect(
      await screen.findByText('Erreur lors de la génération de la parole. Veuillez vérifier les paramètres ou réessayer.'),
    ).toBeInTheDocument();
  });

  it('skips speech when muted, and mute stops what is playing', async () => {
    const calls = serve();
    const user = userEvent.setup();
    await open();
    await say('Bonjour ?');
    await waitFor(() => expect(play).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'Son activé' }));
    expect(pause).toHaveBeenCalled();
    expect(document.querySelector('audio')?.hasAttribute('src')).toBe(false);
    expect(screen.getByRole('button', { name: 'Son coupé' })).toHaveAttribute('aria-pressed', 'true');

    await say('Et le prix ?');
    await within(log()).findByText('Réponse 2.');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.speech).toHaveLength(1);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('does not play a voice that arrives after the section changed', async () => {
    const calls = serve({
      speech: async () => {
        await delay(150);
        return HttpResponse.json({ audioUrl: '/media/speech/late.wav?sig=x' });
      },
    });
    const user = userEvent.setup();
    await open();
    await say('Bonjour ?');
    await within(log()).findByText('Réponse 1.');
    await user.click(screen.getByRole('button', { name: 'Section B' }));
    await waitFor(() => expect(calls.speech).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(play).not.toHaveBeenCalled();
  });
});

describe('SpeakingPage: the microphone', () => {
  it('refuses to record without MediaRecorder or getUserMedia', async () => {
    serve();
    noMicrophone();
    const user = userEvent.setup();
    await open();
    await user.click(micButton());
    expect(screen.getByRole('alert')).toHaveTextContent(RECORDING_UNSUPPORTED);
  });

  it.each([
    ['NotAllowedError', MIC_DENIED],
    ['NotFoundError', MIC_NOT_FOUND],
    ['AbortError', MIC_OTHER],
  ])('maps a %s from the microphone to the spec text', async (name, text) => {
    serve();
    fakeMicrophone({ getUserMedia: () => Promise.reject(new DOMException('no', name)) });
    const user = userEvent.setup();
    await open();
    await user.click(micButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('maps errors without a name to the generic text', () => {
    expect(microphoneError(new Error('x'))).toBe(MIC_OTHER);
    expect(microphoneError({ name: 'PermissionDeniedError' })).toBe(MIC_DENIED);
  });

  it('records, shows the bar, then stops, transcribes and sends the transcript as a turn', async () => {
    const calls = serve({
      transcription: async () => {
        await delay(100);
        return HttpResponse.json({ transcription: ' Bonjour, je voudrais des informations. ' });
      },
    });
    const mic = fakeMicrophone();
    const user = userEvent.setup();
    await open();
    await user.click(micButton());
    const bar = await screen.findByRole('group', { name: 'Enregistrement' });
    expect(within(bar).getByRole('progressbar', { name: 'Durée de l’enregistrement' })).toHaveAttribute('aria-valuemax', '60');
    expect(within(bar).getByText('0:00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Section B' })).toBeDisabled();
    await user.click(within(bar).getByRole('button', { name: 'Arrêter et envoyer' }));
    expect(await screen.findByText('Transcription en cours...')).toBeInTheDocument();
    expect(await within(log()).findByText('Bonjour, je voudrais des informations.')).toBeInTheDocument();
    await within(log()).findByText('Réponse 1.');
    expect(calls.transcriptions).toHaveLength(1);
    expect(atob(calls.transcriptions[0]?.audio ?? '')).toBe('RIFF-webm-bytes');
    expect(mic.track.stop).toHaveBeenCalled();
    expect(calls.chats[0]?.messages).toEqual([{ role: 'user', content: 'Bonjour, je voudrais des informations.' }]);
  });

  it('throws a cancelled recording away, ignores an empty one and an empty transcript', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const calls = serve({ transcription: () => HttpResponse.json({ transcription: '   ' }) });
    fakeMicrophone();
    const user = userEvent.setup();
    await open();
    await user.click(micButton());
    await user.click(await screen.findByRole('button', { name: 'Annuler' }));
    expect(calls.transcriptions).toHaveLength(0);
    expect(micButton()).toBeInTheDocument();

    await user.click(micButton());
    await user.click(await screen.findByRole('button', { name: 'Arrêter et envoyer' }));
    await waitFor(() => expect(calls.transcriptions).toHaveLength(1));
    await waitFor(() => expect(micButton()).toBeInTheDocument());
    expect(calls.chats).toHaveLength(0);

    fakeMicrophone({ payload: '' });
    await user.click(micButton());
    await user.click(await screen.findByRole('button', { name: 'Arrêter et envoyer' }));
    expect(warn).toHaveBeenCalledWith('The recording is empty: nothing to send.');
    expect(calls.transcriptions).toHaveLength(1);
  });

  it('shows the transcription failure text, with the server’s words in smaller print', async () => {
    serve({
      transcription: () =>
        HttpResponse.json(
          { error: `${TRANSCRIPTION_FAILED} Offline speech recognition is still being installed; please try again in a few minutes.` },
          { status: 503 },
        ),
    });
    fakeMicrophone();
    const user = userEvent.setup();
    await open();
    await user.click(micButton());
    await user.click(await screen.findByRole('button', { name: 'Arrêter et envoyer' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(TRANSCRIPTION_FAILED)).toBeInTheDocument();
    expect(within(alert).getByText(/Offline speech recognition is still being installed/)).toHaveClass('speaking-alert-detail');
  });

  it('stops by itself after 60 seconds and sends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve();
    fakeMicrophone();
    await open();
    fireEvent.click(micButton());
    await screen.findByRole('group', { name: 'Enregistrement' });
    await vi.advanceTimersByTimeAsync(61_000);
    await waitFor(() => expect(calls.transcriptions).toHaveLength(1));
  });

  it('refuses to record once the session is over', async () => {
    serve();
    fakeMicrophone();
    seed({ messages: exchanges(10), ended: true, report: reportOf() });
    await open();
    expect(micButton()).toBeDisabled();
  });
});

describe('the report lines', () => {
  it('highlights the score and level lines only', () => {
    expect(isHighlighted('Score : 330/450')).toBe(true);
    expect(isHighlighted('Niveau CLB Estimé : 7')).toBe(true);
    expect(isHighlighted('Niveau TEF Estimé : B2')).toBe(true);
    expect(isHighlighted('Votre score dépend de…')).toBe(false);
  });
});
