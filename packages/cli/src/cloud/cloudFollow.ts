import { eventsAfter, followTask, isFinished, readTask, type TaskEvent, type TaskRecord } from "@lathe/cloud";
import { exitCodes } from "../exitCodes.js";
import type { CloudContext } from "./cloudContext.js";
import { eventLine } from "./cloudOutput.js";

/**
 * `watch` (live, until the task ends) and `logs` (what is stored now). Each event is printed once,
 * in order: `watch` catches up from --after-seq and then follows, and a dropped connection is
 * followed by a read from the last sequence printed.
 */
export async function followEvents(context: CloudContext, task: TaskRecord, live: boolean): Promise<number> {
  const { io, args, database } = context;
  const afterSeq = args.values["after-seq"] === undefined ? 0 : Number(args.values["after-seq"]);
  if (!Number.isInteger(afterSeq) || afterSeq < 0) return args.misuse("--after-seq takes a whole number");
  const print = (event: TaskEvent) =>
    io.stdout(args.values.json ? `${JSON.stringify(event)}\n` : `${eventLine(event)}\n`);
  if (!live) {
    let last = afterSeq;
    for (;;) {
      const events = await eventsAfter(database.pool, task.id, last);
      for (const event of events) print(event);
      if (events.length === 0) break;
      last = events.at(-1)?.seq ?? last;
    }
    return exitCodes.completed;
  }
  // A face that runs the command inside its own process (the terminal UI) stops it with io.signal
  // and keeps SIGINT and SIGTERM to itself: a listener here would keep that process from ending.
  const stop = new AbortController();
  const signal = io.signal ?? stop.signal;
  const onSignal = () => stop.abort();
  if (io.signal === undefined) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  }
  try {
    // A finished task's feed ends at its last event: the stored ones are printed, then it stops.
    const finishedAlready = isFinished(task.status) && task.lastSeq <= afterSeq;
    // Stopped while the task was being found: the feed would not hear a signal given before it.
    if (!finishedAlready && !signal.aborted) {
      await followTask({
        pool: database.pool,
        url: database.url,
        taskId: task.id,
        afterSeq,
        untilFinished: true,
        signal,
        onEvent: print,
        onConnection: (state) =>
          io.stderr(
            state === "lost" ? "lathe cloud: connection lost; reconnecting…\n" : "lathe cloud: reconnected\n",
          ),
      });
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (signal.aborted) return exitCodes.cancelled;
  const final = await readTask(database.pool, task.id);
  if (final?.status === "completed") return exitCodes.completed;
  if (final?.status === "cancelled") return exitCodes.cancelled;
  return exitCodes.error;
}
