// The styles of the first screen, which index.html already carries (src/app/prerender): the navbar
// and the landing's hero. They load in the page's head, with the rest of the global styles.
import '@/styles/global.css';
import '@/features/layout/navbar.css';
import '@/features/landing/landing.css';

// Let the browser paint that first screen, then load and start the app.
requestAnimationFrame(() => {
  setTimeout(() => {
    void import('./boot');
  }, 0);
});
