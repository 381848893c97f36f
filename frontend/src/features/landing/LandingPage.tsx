import { About } from './About';
import { Features } from './Features';
import { Hero } from './Hero';
import { Pricing } from './Pricing';
import { TestCategories } from './TestCategories';
import { useShell } from '@/shared/shell';
import { useHashScroll } from './useHashScroll';
import './landing.css';

/** The landing page (spec §2): hero, test choice, features, pricing and about, reachable by hash. */
export function LandingPage() {
  useHashScroll();
  // The first screen painted from index.html before the app starts: the hero alone.
  const shell = useShell();
  return (
    <div className="landing">
      <Hero />
      {!shell && (
        <>
          <TestCategories />
          <Features />
          <Pricing />
          <About />
        </>
      )}
    </div>
  );
}
