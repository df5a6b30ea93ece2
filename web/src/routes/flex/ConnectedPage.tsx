// ConnectedPage: to be built.
export default function ConnectedPage() {
  return (
    <main className="page">
      <h1>ConnectedPage</h1>
    </main>
  );
}
