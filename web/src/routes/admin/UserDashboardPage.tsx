// UserDashboardPage: to be built.
export default function UserDashboardPage() {
  return (
    <main className="page">
      <h1>UserDashboardPage</h1>
    </main>
  );
}
