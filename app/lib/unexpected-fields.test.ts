import { describe, expect, it } from "vitest";
import { unexpectedFields } from "./unexpected-fields";

describe("unexpectedFields", () => {
  it("names each posted field the form does not declare, once", () => {
    const form = new FormData();
    for (const [name, value] of [
      ["firstName", "Ann"],
      ["amount", "1"],
      ["currency", "JPY"],
      ["amount", "2"],
    ]) {
      form.append(name, value!);
    }
    expect(unexpectedFields(form, ["firstName", "lastName"])).toEqual(["amount", "currency"]);
    expect(unexpectedFields(form, ["firstName", "amount", "currency"])).toEqual([]);
  });
});
