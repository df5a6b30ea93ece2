// LeadsPage: to be built.
export default function LeadsPage() {
  return (
    <main className="page">
      <h1>LeadsPage</h1>
    </main>
  );
}
