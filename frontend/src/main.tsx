// The styles of the first screen, which index.html already carries (src/app/prerender): the navbar
// and the landing's hero. They load in the page's head, with the rest of the global styles.
import '@/styles/global.css';
import '@/features/layout/navbar.css';
import '@/features/landing/landing.css';

const start = () => void import('./boot');

/**
 * With a first screen in the page (the landing), the app starts once the browser has painted it, so
 * that screen never waits for the app's code; a browser that reports no paint starts it anyway after
 * a moment. Any other page (app.html is empty) starts the app at once.
 */
function startAfterFirstPaint(): void {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer.disconnect();
    start();
  };
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length > 0) setTimeout(go, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(go, 250);
}

const shell = document.getElementById('root')?.hasChildNodes() ?? false;
if (shell && document.visibilityState === 'visible' && typeof PerformanceObserver !== 'undefined') {
  startAfterFirstPaint();
} else {
  start();
}
