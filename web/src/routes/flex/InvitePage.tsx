// InvitePage: to be built.
export default function InvitePage() {
  return (
    <main className="page">
      <h1>InvitePage</h1>
    </main>
  );
}
