// OtpPage: to be built.
export default function OtpPage() {
  return (
    <main className="page">
      <h1>OtpPage</h1>
    </main>
  );
}
