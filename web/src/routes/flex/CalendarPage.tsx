// CalendarPage: to be built.
export default function CalendarPage() {
  return (
    <main className="page">
      <h1>CalendarPage</h1>
    </main>
  );
}
