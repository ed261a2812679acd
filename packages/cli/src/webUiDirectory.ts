import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The built web UI: the `dist` folder of the `@lathe/web` package, found the way Node finds the
 * package itself. Undefined when the package is missing or not built, and the server then shows
 * its placeholder page.
 */
export function webUiDirectory(): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve("@lathe/web/package.json");
  } catch {
    return undefined;
  }
  const dist = join(dirname(manifest), "dist");
  return existsSync(join(dist, "index.html")) ? dist : undefined;
}
