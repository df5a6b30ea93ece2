// ToolsPage: to be built.
export default function ToolsPage() {
  return (
    <main className="page">
      <h1>ToolsPage</h1>
    </main>
  );
}
