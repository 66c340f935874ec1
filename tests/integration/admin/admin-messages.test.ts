import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessages, unsubscribeRequests } from "~/db/schema";
import type { KeysetPage } from "~/features/admin/keyset.server";
import type { ContactMessageRow, UnsubscribeRequestRow } from "~/features/admin/messages/messages-admin.server";
import { action as messagesAction, loader as messagesLoader } from "~/routes/admin.messages";
import { databaseWithAdmin, formRequest, pageRequest, toastOf } from "../../support/integration/requests";
import { insertContactMessage, insertUnsubscribeRequest } from "../../support/integration/personal-data-fixtures";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();

interface MessagesData {
  newCounts: { contact: number; unsubscribe: number };
  contactMessages: KeysetPage<ContactMessageRow> | null;
  unsubscribeRequests: KeysetPage<UnsubscribeRequestRow> | null;
}

async function messagesPage(search = "") {
  const result = await routeResult(() =>
    messagesLoader(routeArgs(pageRequest(`/admin/messages${search}`, { cookie: admin().cookie }))),
  );
  expect(result.status).toBe(200);
  return result.data as MessagesData;
}

function postStatus(fields: Record<string, string>, search = "") {
  return routeResult(() =>
    messagesAction(routeArgs(formRequest(`/admin/messages${search}`, fields, { cookie: admin().cookie }))),
  );
}

async function contactStatus(id: string) {
  const [row] = await db()
    .select({ status: contactMessages.status })
    .from(contactMessages)
    .where(eq(contactMessages.id, id));
  return row?.status;
}

const ids = (page: KeysetPage<{ id: string }> | null) => page?.rows.map((row) => row.id);

describe(`the back office's messages on ${testDatabaseKind()}`, () => {
  it("lists contact messages newest first, filtered by status, and counts the new ones", async () => {
    await db().delete(contactMessages);
    const old = await insertContactMessage(db(), { createdAt: new Date("2025-06-01T09:00:00Z") });
    const recent = await insertContactMessage(db(), { createdAt: new Date("2025-06-02T09:00:00Z") });
    const handled = await insertContactMessage(db(), { createdAt: new Date("2025-06-03T09:00:00Z") });
    await db().update(contactMessages).set({ status: "handled" }).where(eq(contactMessages.id, handled.id));

    const all = await messagesPage();
    expect(ids(all.contactMessages)).toEqual([handled.id, recent.id, old.id]);
    expect(all.contactMessages!.rows[0]).toMatchObject({ name: "Ann Lee", message: "Hello", status: "handled" });
    expect(all.unsubscribeRequests).toBeNull();
    expect(all.newCounts.contact).toBe(2);

    expect(ids((await messagesPage("?kind=contact&status=new")).contactMessages)).toEqual([recent.id, old.id]);
    expect(ids((await messagesPage("?kind=contact&status=handled")).contactMessages)).toEqual([handled.id]);
    // An unknown filter shows everything rather than failing.
    expect(ids((await messagesPage("?kind=spam&status=maybe")).contactMessages)).toEqual([
      handled.id,
      recent.id,
      old.id,
    ]);
  });

  it("pages through the messages 25 at a time", async () => {
    await db().delete(contactMessages);
    for (let index = 0; index < 27; index++) {
      await insertContactMessage(db(), { createdAt: new Date(Date.UTC(2025, 6, 1, 9, 0, index)) });
    }
    const first = (await messagesPage()).contactMessages!;
    expect(first.rows).toHaveLength(25);
    const second = (await messagesPage(`?kind=contact&after=${encodeURIComponent(first.next!)}`)).contactMessages!;
    expect(second.rows).toHaveLength(2);
    expect(second.next).toBeNull();
    expect(new Set([...ids(first)!, ...ids(second)!]).size).toBe(27);
  });

  it("marks a contact message handled and back to new, then returns to the same list with a toast", async () => {
    const message = await insertContactMessage(db());
    const search = "?kind=contact&status=new";

    const handled = await postStatus({ kind: "contact", id: message.id, status: "handled" }, search);
    expect(handled).toMatchObject({ status: 302, location: `/admin/messages${search}` });
    expect(toastOf(handled.headers)).toEqual({ type: "success", title: "Message marqué comme traité" });
    expect(await contactStatus(message.id)).toBe("handled");

    const reopened = await postStatus({ kind: "contact", id: message.id, status: "new" });
    expect(reopened).toMatchObject({ status: 302, location: "/admin/messages" });
    expect(toastOf(reopened.headers)).toEqual({ type: "success", title: "Message remis en nouveau" });
    expect(await contactStatus(message.id)).toBe("new");
  });

  it("marks an unsubscribe request handled; back to new, a confirmed one says confirmed again", async () => {
    const request = await insertUnsubscribeRequest(db());
    await db()
      .update(unsubscribeRequests)
      .set({ confirmedAt: new Date(), status: "confirmed" })
      .where(eq(unsubscribeRequests.id, request.id));
    const status = async () =>
      (
        await db()
          .select({ status: unsubscribeRequests.status })
          .from(unsubscribeRequests)
          .where(eq(unsubscribeRequests.id, request.id))
      )[0]!.status;

    const listed = (await messagesPage("?kind=unsubscribe&status=new")).unsubscribeRequests!;
    expect(listed.rows.find((row) => row.id === request.id)).toMatchObject({ status: "new", expired: false });

    const handled = await postStatus({ kind: "unsubscribe", id: request.id, status: "handled" });
    expect(toastOf(handled.headers)).toEqual({ type: "success", title: "Demande marquée comme traitée" });
    expect(await status()).toBe("handled");
    expect(ids((await messagesPage("?kind=unsubscribe&status=handled")).unsubscribeRequests)).toContain(request.id);

    await postStatus({ kind: "unsubscribe", id: request.id, status: "new" });
    expect(await status()).toBe("confirmed");
  });

  it.each([
    [
      "an id that is not a uuid",
      { kind: "contact", id: "1 or 1=1", status: "handled" },
      400,
      "Identifiant de message invalide : rien n'a été modifié.",
    ],
    [
      "an unknown status",
      { kind: "contact", id: "ID", status: "deleted" },
      400,
      "Statut inconnu, « Nouveau » ou « Traité » attendu : rien n'a été modifié.",
    ],
    [
      "an unknown kind",
      { kind: "orders", id: "ID", status: "handled" },
      400,
      "Type de message inconnu : rien n'a été modifié.",
    ],
    [
      "a message that does not exist",
      { kind: "contact", id: "00000000-0000-4000-8000-000000000000", status: "handled" },
      404,
      "Ce message n'existe pas ou a été supprimé : rien n'a été modifié.",
    ],
    [
      "a contact message's id given as an unsubscribe request's",
      { kind: "unsubscribe", id: "ID", status: "handled" },
      404,
      "Ce message n'existe pas ou a été supprimé : rien n'a été modifié.",
    ],
  ])("refuses %s with a clear message, changing nothing", async (_case, fields, status, error) => {
    const message = await insertContactMessage(db());
    const result = await postStatus({ ...fields, id: fields.id === "ID" ? message.id : fields.id });
    expect(result).toMatchObject({ status, data: { error } });
    expect(result.headers.getSetCookie()).toEqual([]);
    expect(await contactStatus(message.id)).toBe("new");
  });
});
