// ConnectPage: to be built.
export default function ConnectPage() {
  return (
    <main className="page">
      <h1>ConnectPage</h1>
    </main>
  );
}
