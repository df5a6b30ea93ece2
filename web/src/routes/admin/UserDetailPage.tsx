// UserDetailPage: to be built.
export default function UserDetailPage() {
  return (
    <main className="page">
      <h1>UserDetailPage</h1>
    </main>
  );
}
