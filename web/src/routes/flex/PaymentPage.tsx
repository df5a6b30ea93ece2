// PaymentPage: to be built.
export default function PaymentPage() {
  return (
    <main className="page">
      <h1>PaymentPage</h1>
    </main>
  );
}
