import { once } from "node:events";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";

/** The processes `pid` started (a cluster primary's workers), from /proc. */
export function childProcesses(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number);
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

/**
 * Which of `processes` holds the server's end of `client`'s connection to `port` on 127.0.0.1: the
 * primary hands each accepted connection to a worker, whose files then hold its socket.
 */
export function processHolding(client: Socket, port: number, processes: number[]): number | undefined {
  const hex = (value: number) => value.toString(16).toUpperCase().padStart(4, "0");
  const serverEnd = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .find(([, local, remote]) => local?.endsWith(`:${hex(port)}`) && remote?.endsWith(`:${hex(client.localPort!)}`));
  const inode = serverEnd?.[9];
  if (!inode || inode === "0") return undefined;
  return processes.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`);
    } catch {
      return false; // it exited meanwhile
    }
  });
}

/** Connects to `port` on 127.0.0.1 and waits until one of `workers` holds the connection: that one. */
export async function connectToWorker(
  port: number,
  workers: number[],
  timeoutMs = 30_000,
): Promise<{ client: Socket; worker: number | undefined }> {
  const client = connect(port, "127.0.0.1");
  await once(client, "connect");
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    const worker = processHolding(client, port, workers);
    if (worker !== undefined) return { client, worker };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { client, worker: undefined };
}
