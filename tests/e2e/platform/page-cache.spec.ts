import { signInAsNewMember } from "../../support/e2e/auth-page";
import { expect, test } from "../../support/e2e/fixtures";

// Anonymous views of the public pages are served from memory (server/page-cache.ts); these check
// that nobody is ever served a page meant for someone else.

const toastCookie = (title: string) =>
  `toast=${Buffer.from(JSON.stringify({ type: "info", title })).toString("base64url")}`;

test("an anonymous page view is rendered once, then served from the cache", async ({ request }) => {
  const first = await request.get("/faq");
  const second = await request.get("/faq");
  expect(second.headers()["x-page-cache"]).toBe("hit");
  expect(await second.text()).toBe(await first.text());
  expect(second.headers()["set-cookie"]).toBeUndefined();
});

test("each currency has its own cached page", async ({ request }) => {
  await request.get("/fast-track");
  const dollars = await request.get("/fast-track");
  const euros = await request.get("/fast-track", { headers: { Cookie: "currency=EUR" } });
  expect(await dollars.text()).toContain("from $5</h1>");
  expect(await euros.text()).toContain("from €5</h1>");
});

test("a visitor with a toast gets a page of their own, and nobody else sees the toast", async ({ request }) => {
  const title = `Cache check ${Date.now()}`;
  const withToast = await request.get("/terms", { headers: { Cookie: `currency=USD; ${toastCookie(title)}` } });
  expect(withToast.headers()["x-page-cache"]).toBeUndefined();
  expect(withToast.headers()["set-cookie"]).toContain("toast=;");
  expect(await withToast.text()).toContain(title);

  const anonymous = await request.get("/terms", { headers: { Cookie: "currency=USD" } });
  expect(await anonymous.text()).not.toContain(title);
});

test("a signed-in visitor is never served the cache, nor leaves their page in it", async ({ page, request }) => {
  const person = await signInAsNewMember(page);
  const signedIn = await page.goto("/services");
  expect(await signedIn?.headerValue("x-page-cache")).toBeNull();
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign Out" })).toBeVisible();

  const anonymous = await request.get("/services");
  const html = await anonymous.text();
  expect(html).not.toContain(person.fullName);
  expect(html).not.toContain("Sign Out");
});

test("a query string or an unknown cookie bypasses the cache", async ({ request }) => {
  await request.get("/privacy");
  expect((await request.get("/privacy?utm_source=x")).headers()["x-page-cache"]).toBeUndefined();
  const tracked = await request.get("/privacy", { headers: { Cookie: "other=1" } });
  expect(tracked.headers()["x-page-cache"]).toBeUndefined();
});
