// ConfirmAccountPage: to be built.
export default function ConfirmAccountPage() {
  return (
    <main className="page">
      <h1>ConfirmAccountPage</h1>
    </main>
  );
}
