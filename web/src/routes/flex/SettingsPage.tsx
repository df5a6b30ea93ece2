// SettingsPage: to be built.
export default function SettingsPage() {
  return (
    <main className="page">
      <h1>SettingsPage</h1>
    </main>
  );
}
