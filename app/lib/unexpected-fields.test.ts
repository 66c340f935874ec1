import { describe, expect, it } from "vitest";
import { unexpectedFields } from "./unexpected-fields";

describe("unexpectedFields", () => {
  it("names each posted field the form does not declare, once", () => {
    const form = new FormData();
    form.append("firstName", "Ann");
    form.append("amount", "1");
    form.append("currency", "JPY");
    form.append("amount", "2");
    expect(unexpectedFields(form, ["firstName", "lastName"])).toEqual(["amount", "currency"]);
    expect(unexpectedFields(form, ["firstName", "amount", "currency"])).toEqual([]);
  });
});
