// ContactPage: to be built.
export default function ContactPage() {
  return (
    <main className="page">
      <h1>ContactPage</h1>
    </main>
  );
}
