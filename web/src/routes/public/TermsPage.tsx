// TermsPage: to be built.
export default function TermsPage() {
  return (
    <main className="page">
      <h1>TermsPage</h1>
    </main>
  );
}
