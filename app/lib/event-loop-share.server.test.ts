import { describe, expect, it } from "vitest";
import { eventLoopShare as realShare, type EventLoopShare } from "./event-loop-share.server";

// A clock that only the test moves: a busy machine pausing this process cannot end a slice early.
let clock = 0;
const eventLoopShare = () => realShare(() => clock);

/** Keeps the event loop for `ms`, as a job's work does. */
function work(ms: number) {
  clock += ms;
}

/** Whether `share.pause()` let a turn of the event loop (a macrotask queued before it) run. */
async function letsTheLoopTurn(share: EventLoopShare) {
  let turned = false;
  const queued = setImmediate(() => (turned = true));
  await share.pause();
  clearImmediate(queued);
  return turned;
}

describe("eventLoopShare", () => {
  it("lets the event loop turn once its slice has run out, then starts a new slice", async () => {
    const share = eventLoopShare();
    expect(await letsTheLoopTurn(share)).toBe(false);
    work(6);
    expect(await letsTheLoopTurn(share)).toBe(true);
    expect(await letsTheLoopTurn(share)).toBe(false);
  });

  it("gives each user a slice of its own: one that starts after another's long work does not pause at once", async () => {
    const first = eventLoopShare();
    work(6);
    const second = eventLoopShare();
    expect(await letsTheLoopTurn(second)).toBe(false);
    expect(await letsTheLoopTurn(first)).toBe(true);
  });

  it("does not restart one user's slice when another pauses", async () => {
    const first = eventLoopShare();
    const second = eventLoopShare();
    work(6);
    expect(await letsTheLoopTurn(first)).toBe(true);
    expect(await letsTheLoopTurn(second)).toBe(true);
  });
});
