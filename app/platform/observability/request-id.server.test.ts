import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { currentRequestId, requestIdFor, withRequestId } from "./request-id.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("requestIdFor", () => {
  it.each([
    "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    "7d1f9d0e-2a2b-4c3d-9e8f-0a1b2c3d4e5f",
    "Root=1-5759e988-bd862e3fe1be46a994272793",
  ])("keeps the id %s that a trusted proxy gives", (id) => {
    expect(requestIdFor(id, true)).toBe(id);
  });

  it("makes its own id when the peer is no trusted proxy, whatever it sends", () => {
    const id = requestIdFor("chosen-by-the-client", false);
    expect(id).toMatch(UUID);
    expect(requestIdFor(undefined, false)).toMatch(UUID);
    expect(requestIdFor(undefined, true)).toMatch(UUID);
  });

  it.each([
    ["too long", "a".repeat(129)],
    ["empty", ""],
    ["with a space", "two words"],
    ["with a quote", 'id"},"level":60'],
    ["with a line break", "id\nforged line"],
    ["with markup", "<script>"],
    ["sent twice (joined with a comma)", "one, two"],
  ])("replaces a trusted proxy's id that is %s", (_why, id) => {
    expect(requestIdFor(id, true)).toMatch(UUID);
  });

  it("replaces a header that came as a list", () => {
    expect(requestIdFor(["one", "two"], true)).toMatch(UUID);
  });

  it("makes a new id each time", () => {
    expect(requestIdFor(undefined, false)).not.toBe(requestIdFor(undefined, false));
  });
});

describe("withRequestId", () => {
  it("gives its id to everything the handling starts, and to nothing outside it", async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await withRequestId("first", async () => {
      await sleep(5);
      const later = new Promise<string | undefined>((resolve) => setTimeout(() => resolve(currentRequestId()), 5));
      return [currentRequestId(), await later];
    });
    expect(seen).toEqual(["first", "first"]);
    expect(currentRequestId()).toBeUndefined();
  });

  it("keeps two requests handled at once apart", async () => {
    const handle = (id: string, ms: number) =>
      withRequestId(id, async () => {
        await sleep(ms);
        return currentRequestId();
      });
    expect(await Promise.all([handle("slow", 20), handle("fast", 1)])).toEqual(["slow", "fast"]);
  });
});
