// DashboardPage: to be built.
export default function DashboardPage() {
  return (
    <main className="page">
      <h1>DashboardPage</h1>
    </main>
  );
}
