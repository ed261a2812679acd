import { accessSync, constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { LatheError } from "@lathe/protocol";

/** Where Debian, Ubuntu and Google's packages put the browser; Playwright's own downloads are never used. */
const knownExecutables = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

const installHint = "install chromium (apt-get install chromium) or set browser.executablePath";

/**
 * The browser to launch. A configured path that does not work is an error rather than a reason to
 * fall back: the user asked for that browser, and silently driving another would hide the mistake.
 */
export async function findBrowserExecutable(configured: string | undefined): Promise<string> {
  if (configured !== undefined) {
    if (await isExecutable(configured)) return configured;
    throw new LatheError(
      "E_TOOL_EXECUTION",
      `no browser found: browser.executablePath ${configured} is not an executable file; ${installHint}`,
    );
  }
  for (const candidate of knownExecutables) {
    if (await isExecutable(candidate)) return candidate;
  }
  throw new LatheError(
    "E_TOOL_EXECUTION",
    `no browser found (looked for ${knownExecutables.join(", ")}): ${installHint}`,
  );
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether `browser_use` is worth offering: a browser is configured (one that does not work is
 * reported when used, as above) or installed where the packages put it.
 */
export function browserMayLaunch(configured: string | undefined): boolean {
  if (configured !== undefined) return true;
  return knownExecutables.some((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
