import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import { killDescendantProcesses } from "./descendantProcesses.js";

/** Set by bin/lathe.js when it starts the engine on another Node: the fd of its pipe to us. */
const launcherPipeVariable = "LATHE_PARENT_FD";

/**
 * When the launcher (bin/lathe.js on an old Node) started this process, stops it the moment the
 * launcher is gone. The launcher forwards the signals it can catch; a SIGKILL it cannot, and an
 * orphaned engine would go on calling the model and editing the project. The kernel closes the
 * launcher's end of the pipe however it dies, and the read end here then ends.
 *
 * The variable leaves `env` first, so the commands, hooks and servers Lathe starts never see it;
 * the fd itself is not passed on either (Node gives a child only the stdio it is told to).
 */
export function watchLauncher(env: NodeJS.ProcessEnv): void {
  const value = env[launcherPipeVariable];
  delete env[launcherPipeVariable];
  if (value === undefined || !/^\d+$/.test(value)) return;
  const fd = Number(value);
  if (fd < 3 || !isPipe(fd)) return;
  const pipe = new Socket({ fd, readable: true, writable: false });
  pipe.on("end", stopAtOnce);
  pipe.on("close", stopAtOnce);
  pipe.on("error", stopAtOnce);
  pipe.resume();
  // Only a watch: the run, not this pipe, decides when Lathe is done.
  pipe.unref();
}

/**
 * As if Lathe had been killed with its launcher: no cancel, no cleanup that could write more to
 * the project or spend more on the model; only the processes it started die with it. Then a
 * SIGKILL of our own rather than process.exit: exit handlers and Node's teardown still run code
 * after an exit, and under load that teardown was seen waiting seconds on a V8 worker thread.
 * The status is then the launcher's own, a SIGKILL (137 in a shell), though no one may read it.
 */
function stopAtOnce(): void {
  killDescendantProcesses();
  process.kill(process.pid, "SIGKILL");
}

function isPipe(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}
