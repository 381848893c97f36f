export function LandingPage() {
  return <h1>Prepare for Your TEF Exam with Confidence</h1>;
}
