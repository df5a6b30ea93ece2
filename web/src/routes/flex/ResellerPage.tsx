// ResellerPage: to be built.
export default function ResellerPage() {
  return (
    <main className="page">
      <h1>ResellerPage</h1>
    </main>
  );
}
