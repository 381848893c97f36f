import { About } from './About';
import { Features } from './Features';
import { Hero } from './Hero';
import { Pricing } from './Pricing';
import { TestCategories } from './TestCategories';
import { useHashScroll } from './useHashScroll';
import './landing.css';

/** The landing page (spec §2): hero, test choice, features, pricing and about, reachable by hash. */
export function LandingPage() {
  useHashScroll();
  return (
    <div className="landing">
      <Hero />
      <TestCategories />
      <Features />
      <Pricing />
      <About />
    </div>
  );
}
