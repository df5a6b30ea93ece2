// LoginPage: to be built.
export default function LoginPage() {
  return (
    <main className="page">
      <h1>LoginPage</h1>
    </main>
  );
}
