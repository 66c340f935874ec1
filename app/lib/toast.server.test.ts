import { describe, expect, it } from "vitest";
import { redirectWithToast, takeToast, toastCookie } from "./toast.server";

function requestWithCookie(cookie: string) {
  return new Request("http://localhost/", { headers: { Cookie: cookie } });
}

describe("toasts across a redirect", () => {
  it("carries a toast to the next request and clears it there", () => {
    const toast = { type: "success" as const, title: "Success", description: "Your booking é" };
    const setCookie = toastCookie(toast);
    const cookiePair = setCookie.split(";")[0]!;
    const { toast: taken, clearCookie } = takeToast(requestWithCookie(`other=1; ${cookiePair}`));
    expect(taken).toEqual(toast);
    expect(clearCookie).toMatch(/^toast=; .*Max-Age=0/);
  });

  it("ignores a cookie that is not a valid toast but still clears it", () => {
    const { toast, clearCookie } = takeToast(requestWithCookie("toast=bm90LWpzb24"));
    expect(toast).toBeNull();
    expect(clearCookie).not.toBeNull();
  });

  it("keeps the redirect's other cookies", () => {
    const response = redirectWithToast("/next", { type: "info", title: "Hi" }, { headers: { "Set-Cookie": "a=1" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/next");
    expect(response.headers.getSetCookie()).toHaveLength(2);
  });
});
