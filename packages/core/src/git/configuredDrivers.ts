import type { GitSetting } from "./gitProtections.js";

/**
 * Drivers are named by `.gitattributes` (a file of the project) and defined in config: a filter's
 * clean and smudge commands run on `status`, `add` and `checkout`, with no option to turn them
 * off, and a diff or merge driver's command runs when one is used. The runner lists the
 * definitions every config file in play holds and empties each of them.
 */
const driverCommand = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|required|command|textconv|driver)$/s;

const emptied: Readonly<Record<string, readonly GitSetting[]>> = {
  filter: [
    ["clean", ""],
    ["smudge", ""],
    ["process", ""],
    // A required filter that has no command fails the operation instead of storing the raw bytes.
    ["required", "false"],
  ],
  diff: [
    ["command", ""],
    ["textconv", ""],
  ],
  merge: [["driver", ""]],
};

/** Settings that disarm every driver the NUL-separated names of `git config --name-only -z --list` define. */
export function disarmedDrivers(configNames: string): GitSetting[] {
  const drivers = new Map<string, { section: string; name: string }>();
  for (const entry of configNames.split("\0")) {
    const match = driverCommand.exec(entry);
    if (match === null) continue;
    const section = (match[1] ?? "").toLowerCase();
    const name = match[2] ?? "";
    drivers.set(`${section}\0${name}`, { section, name });
  }
  return [...drivers.values()].flatMap(({ section, name }) =>
    (emptied[section] ?? []).map(([key, value]): GitSetting => [`${section}.${name}.${key}`, value]),
  );
}
