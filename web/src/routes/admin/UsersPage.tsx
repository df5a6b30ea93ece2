// UsersPage: to be built.
export default function UsersPage() {
  return (
    <main className="page">
      <h1>UsersPage</h1>
    </main>
  );
}
