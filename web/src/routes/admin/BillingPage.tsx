// BillingPage: to be built.
export default function BillingPage() {
  return (
    <main className="page">
      <h1>BillingPage</h1>
    </main>
  );
}
