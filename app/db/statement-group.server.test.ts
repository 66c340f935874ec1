import { describe, expect, it } from "vitest";
import { StatementGroup } from "./statement-group.server";

/** A group whose statements are recorded; an item "fail" fails any statement it is in. */
function recordedGroup() {
  const statements: string[][] = [];
  const run = (items: string[]) => {
    statements.push(items);
    if (items.includes("fail")) return Promise.reject(new Error("refused"));
    return Promise.resolve(items.map((item) => `${item}!`));
  };
  const group = new StatementGroup<string, string>({
    one: async (item) => (await run([item]))[0]!,
    many: run,
    // Items sharing a first letter touch one row: they never go together.
    fits: (item, others) => others.every((other) => other[0] !== item[0]),
    maxItems: 3,
  });
  return { group, statements };
}

describe("StatementGroup", () => {
  it("sends an item at once, and the items arriving meanwhile together in the next statement", async () => {
    const { group, statements } = recordedGroup();
    const results = await Promise.all(["a1", "b1", "c1", "d1"].map((item) => group.add(item)));
    expect(results).toEqual(["a1!", "b1!", "c1!", "d1!"]);
    expect(statements).toEqual([["a1"], ["b1", "c1", "d1"]]);
  });

  it("keeps items that touch a row of the statement, and those beyond its size, for later ones, in order", async () => {
    const { group, statements } = recordedGroup();
    const items = ["a1", "a2", "b1", "a3", "c1", "d1", "e1"];
    expect(await Promise.all(items.map((item) => group.add(item)))).toEqual(items.map((item) => `${item}!`));
    expect(statements).toEqual([["a1"], ["a2", "b1", "c1"], ["a3", "d1", "e1"]]);
  });

  it("runs each item of a failed statement alone, so that only the item at fault fails", async () => {
    const { group, statements } = recordedGroup();
    const settled = await Promise.allSettled(["a1", "b1", "fail", "c1"].map((item) => group.add(item)));
    expect(settled.map((result) => (result.status === "fulfilled" ? result.value : "rejected"))).toEqual([
      "a1!",
      "b1!",
      "rejected",
      "c1!",
    ]);
    expect(statements).toEqual([["a1"], ["b1", "fail", "c1"], ["b1"], ["fail"], ["c1"]]);
  });

  it("goes on with the next items after a failure", async () => {
    const { group } = recordedGroup();
    await expect(group.add("fail")).rejects.toThrow("refused");
    expect(await group.add("a1")).toBe("a1!");
  });
});
