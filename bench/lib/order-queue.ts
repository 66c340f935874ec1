import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Order ids a wrk run takes at a time: every run (warm-up, rounds) goes on after the last one's block. */
const BLOCK = 64;

export interface OrderQueue {
  /**
   * Lua defining `next_order()`: the next unused order id, and the address of its own traveller
   * (`<firstOctet>.x.y.z`), for X-Forwarded-For; a well-formed id of no order once every id has been handed out.
   */
  lua: string;
  /** Whether a run asked for more orders than the queue had. */
  exhausted(): boolean;
  dispose(): void;
}

/**
 * Hands each request of every wrk run (bench/lib/load.ts starts a new wrk for the warm-up and for
 * each round) an order of its own: the ids are read from a file, and a cursor file says how far
 * earlier runs got, so that no order is sent twice.
 */
export function orderQueue(ids: string[], firstOctet: number): OrderQueue {
  const folder = mkdtempSync(join(tmpdir(), "bench-orders-"));
  const idsFile = join(folder, "ids");
  const cursorFile = join(folder, "cursor");
  const exhaustedFile = join(folder, "exhausted");
  writeFileSync(idsFile, ids.join("\n") + "\n");
  writeFileSync(cursorFile, "0");
  const lua = `
local queue_ids = {}
local queue_next, queue_limit = 1, 0

function init(args)
  for line in io.lines(${JSON.stringify(idsFile)}) do queue_ids[#queue_ids + 1] = line end
end

local function queue_reserve()
  local file = io.open(${JSON.stringify(cursorFile)}, "r")
  local start = tonumber(file:read("*l"))
  file:close()
  queue_next, queue_limit = start + 1, start + ${BLOCK}
  file = io.open(${JSON.stringify(cursorFile)}, "w")
  file:write(tostring(queue_limit))
  file:close()
end

function next_order()
  if queue_next > queue_limit then queue_reserve() end
  local index = queue_next
  queue_next = queue_next + 1
  local address = string.format("${firstOctet}.%d.%d.%d", math.floor(index / 65536) % 256, math.floor(index / 256) % 256, index % 256)
  if queue_ids[index] then return queue_ids[index], address end
  io.open(${JSON.stringify(exhaustedFile)}, "w"):close()
  return "00000000-0000-4000-8000-000000000000", address
end
`;
  return {
    lua,
    exhausted: () => existsSync(exhaustedFile),
    dispose: () => rmSync(folder, { recursive: true, force: true }),
  };
}
