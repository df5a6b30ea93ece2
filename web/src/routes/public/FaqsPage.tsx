// FaqsPage: to be built.
export default function FaqsPage() {
  return (
    <main className="page">
      <h1>FaqsPage</h1>
    </main>
  );
}
