// InvitationsPage: to be built.
export default function InvitationsPage() {
  return (
    <main className="page">
      <h1>InvitationsPage</h1>
    </main>
  );
}
