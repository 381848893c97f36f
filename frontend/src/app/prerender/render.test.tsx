import { renderLandingShell } from './render';

describe('the landing shell painted into index.html', () => {
  it('draws the navbar and the hero through the real routes, and nothing that needs config, a session or data', async () => {
    const html = await renderLandingShell();
    expect(html).toContain('class="navbar"');
    expect(html).toContain('id="hero-title"');
    expect(html).toContain('Prepare for Your TEF Exam with Confidence');
    expect(html).toContain('Try a free test');
    // Not the rest of the landing, the footer or the terms dialog: they come with the app.
    expect(html).not.toContain('id="pricing"');
    expect(html).not.toContain('site-footer');
    expect(html).not.toContain('role="dialog"');
    // Its only button, the phone menu's toggle, is disabled until the app starts (a dead control
    // would swallow a tap); the links work without a script.
    expect(html.match(/<button[^>]*>/g)?.every((b) => b.includes('disabled'))).toBe(true);
    // Neither "Login" nor a user's menu: the session is not read yet.
    expect(html).not.toMatch(/>Login</);
    expect(html).not.toMatch(/>Logout</);
    // The placeholder configuration never shows.
    expect(html).not.toContain('shell@invalid');
    expect(html).not.toContain('about:blank');
    // Nothing the content security policy would refuse (style-src 'self', script-src 'self').
    expect(html).not.toContain('style=');
    expect(html).not.toContain('<script');
  });
});
