import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Download, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Form, useRevalidator } from "react-router";
import { toast } from "~/components/ui/toast";
import { FieldError, withoutKey } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
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
  const [pending, setPending] = useState(false);

  async function download(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    try {
      const response = await fetch(action, { method: "POST", body: new FormData(event.currentTarget) });
      if (!response.ok || !response.headers.get("Content-Type")?.includes("json")) throw new Error(EXPORT_FAILED);
      await saveDownload(response);
      await revalidator.revalidate();
    } catch {
      toast.error(EXPORT_FAILED);
    } finally {
      setPending(false);
    }
  }

  return (
    <form method="post" action={action} onSubmit={download}>
      <StatusButton
        pending={pending}
        pendingLabel="Export en cours..."
        icon={<Download aria-hidden="true" />}
        variant="outline"
      >
        Exporter les données (JSON)
      </StatusButton>
    </form>
  );
}

/** Erases the person's data once the admin ticks the confirmation. */
export function EraseForm({ email, lastResult }: { email: string; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "erase",
    lastResult,
    constraint: getZodConstraint(eraseSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: eraseSchema }),
  });
  const checkbox = withoutKey(getInputProps(fields.confirm, { type: "checkbox" }));
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
      <StatusButton
        pending={pending}
        pendingLabel="Effacement..."
        icon={<Trash2 aria-hidden="true" />}
        variant="destructive"
        className="justify-self-start"
      >
        Effacer les données
      </StatusButton>
    </Form>
  );
}
