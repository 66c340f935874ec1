import { describe, expect, it } from "vitest";
import { inFlightWork } from "./in-flight";

const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("inFlightWork", () => {
  it("waits for work that tracked work hands on, as a request leaving the rate limit for its route", async () => {
    const work = inFlightWork();
    const done: string[] = [];
    work.track(
      later(20).then(() => {
        done.push("rate limit");
        work.track(later(30).then(() => done.push("route")));
      }),
    );
    await work.settled(5_000);
    expect(done).toEqual(["rate limit", "route"]);
  });

  it("gives up after its timeout", async () => {
    const work = inFlightWork();
    work.track(new Promise(() => {}));
    const started = Date.now();
    await work.settled(50);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
