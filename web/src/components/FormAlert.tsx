// The message a form shows above its button when sending failed or was refused.
export function FormAlert({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="form-alert" role="alert">
      {text}
    </p>
  );
}
