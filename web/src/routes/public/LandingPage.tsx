// LandingPage: to be built.
export default function LandingPage() {
  return (
    <main className="page">
      <h1>LandingPage</h1>
    </main>
  );
}
