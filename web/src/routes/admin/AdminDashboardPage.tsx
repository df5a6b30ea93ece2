// AdminDashboardPage: to be built.
export default function AdminDashboardPage() {
  return (
    <main className="page">
      <h1>AdminDashboardPage</h1>
    </main>
  );
}
