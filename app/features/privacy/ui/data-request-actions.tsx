import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Download, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Form, useRevalidator } from "react-router";
import { toast } from "~/components/ui/toast";
import { FieldError, FormAlert } from "~/components/ui/form-field";
import { useSubmitting } from "~/components/ui/use-submitting";
import { Button } from "~/components/ui/button";
import { eraseSchema } from "~/features/privacy/data-request-schema";

const EXPORT_FAILED = "L'export a échoué. Rechargez la page et réessayez.";

/** Saves the response's body under the name its Content-Disposition gives. */
async function saveDownload(response: Response) {
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "export.json";
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads the JSON file. A plain form post, so it works without JavaScript (the browser saves the
 * answer); with JavaScript the page also refreshes its history to show the export.
 */
export function ExportForm({ action }: { action: string }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  async function download(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      const response = await fetch(action, { method: "POST", body: new FormData(event.currentTarget) });
      if (!response.ok || !response.headers.get("Content-Type")?.includes("json")) throw new Error(EXPORT_FAILED);
      await saveDownload(response);
      await revalidator.revalidate();
    } catch {
      toast.error(EXPORT_FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action={action} onSubmit={download}>
      <Button type="submit" variant="outline" disabled={busy}>
        <Download aria-hidden="true" />
        {busy ? "Export en cours..." : "Exporter les données (JSON)"}
      </Button>
    </form>
  );
}

/** Erases the person's data once the admin ticks the confirmation. */
export function EraseForm({ email, lastResult }: { email: string; lastResult?: SubmissionResult<string[]> }) {
  const busy = useSubmitting();
  const [form, fields] = useForm({
    id: "erase",
    lastResult,
    constraint: getZodConstraint(eraseSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: eraseSchema }),
  });
  const { key: _key, ...checkbox } = getInputProps(fields.confirm, { type: "checkbox" });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3">
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="flex items-start gap-3">
        <input {...checkbox} className="mt-0.5 size-4 shrink-0 accent-destructive" />
        <label htmlFor={fields.confirm.id} className="text-sm">
          Je confirme l'effacement définitif des données de <strong className="wrap-anywhere">{email}</strong>.
        </label>
      </div>
      <FieldError id={fields.confirm.errorId} errors={fields.confirm.errors} />
      <Button type="submit" variant="destructive" disabled={busy} className="justify-self-start">
        <Trash2 aria-hidden="true" />
        {busy ? "Effacement..." : "Effacer les données"}
      </Button>
    </Form>
  );
}
