// ForgotPasswordPage: to be built.
export default function ForgotPasswordPage() {
  return (
    <main className="page">
      <h1>ForgotPasswordPage</h1>
    </main>
  );
}
