// NotificationsPage: to be built.
export default function NotificationsPage() {
  return (
    <main className="page">
      <h1>NotificationsPage</h1>
    </main>
  );
}
