/**
 * `command` with its arguments, run on the CPUs that the environment variable `cpusVariable` lists
 * in taskset's format ("0-7", "8,9"), when it is set: on a machine of many cores the server, its
 * database and the load generator each get cores of their own (bench/NOTES.md). taskset replaces
 * itself with the command, so the process id is the command's.
 */
export function pinned(cpusVariable: string, command: string, args: string[]): [string, string[]] {
  const cpus = process.env[cpusVariable];
  return cpus ? ["taskset", ["-c", cpus, command, ...args]] : [command, args];
}
