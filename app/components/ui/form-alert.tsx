/**
 * What went wrong with a whole form (a refused submission, a failed save, a declined card), above or
 * beside its fields; `id` is the form's `aria-describedby` target (Conform's `form.errorId`).
 */
export function FormAlert({ id, title, errors }: { id?: string; title?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive"
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}
