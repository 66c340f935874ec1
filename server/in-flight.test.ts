import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { inFlightWork } from "./in-flight";

const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const response = () => new ServerResponse(new IncomingMessage(new Socket()));

describe("inFlightWork", () => {
  it("counts a request from its arrival, through the steps before its route, until the route's work has settled", async () => {
    const work = inFlightWork();
    const res = response();
    const done: string[] = [];
    work.arrived(res);
    // A hung-up request still in express.static's file lookup and the rate limit's count when the
    // server closed: nothing was running yet, and its route then met a closed database.
    void later(20).then(() => {
      done.push("before the route");
      work.handedOn(
        res,
        later(30).then(() => done.push("route")),
      );
    });
    await work.settled(5_000);
    expect(done).toEqual(["before the route", "route"]);
  });

  it("stops counting a request answered before its route, whether or not its connection is still open", async () => {
    const work = inFlightWork();
    const res = response();
    work.arrived(res);
    res.socket?.destroy();
    void later(20).then(() => res.end("Too many requests"));
    const started = Date.now();
    await work.settled(5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("gives up after its timeout", async () => {
    const work = inFlightWork();
    work.arrived(response());
    const started = Date.now();
    await work.settled(50);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
