import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { AbortRace } from "../../src/cancellation/abortRace.js";

describe("AbortRace", () => {
  it("settles with each piece of work while the signal stays quiet", async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    expect(await race.run(Promise.resolve(1))).toBe(1);
    expect(await race.run(sleep(5, "later"))).toBe("later");
    await expect(race.run(Promise.reject(new Error("work failed")))).rejects.toThrow("work failed");
    race.dispose();
  });

  it("rejects the pending work with the signal's reason as soon as it aborts", async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    const never = new Promise<string>(() => {});
    const pending = race.run(never);
    const reason = new Error("stopped");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // Once aborted, new work is refused at once with the same reason.
    await expect(race.run(Promise.resolve("too late"))).rejects.toBe(reason);
  });

  it("swallows the late failure of work it abandoned", async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    let fail: (error: Error) => void = () => {};
    const work = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const pending = race.run(work);
    controller.abort("cancelled");
    await expect(pending).rejects.toBe("cancelled");
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    fail(new Error("late"));
    await sleep(10);
    process.off("unhandledRejection", onUnhandled);
    expect(unhandled).toEqual([]);
  });

  it("stops listening to the signal once disposed", async () => {
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    let resolveWork: (value: string) => void = () => {};
    const pending = race.run(
      new Promise<string>((resolve) => {
        resolveWork = resolve;
      }),
    );
    race.dispose();
    controller.abort("ignored");
    resolveWork("finished");
    expect(await pending).toBe("finished");
  });
});
