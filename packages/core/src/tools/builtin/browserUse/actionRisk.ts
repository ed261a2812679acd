import type { Risk } from "@lathe/protocol";
import { isLocalhostName, preflightUrl } from "../../../policy/networkGuard/index.js";
import type { BrowserAction } from "./actionSchema.js";

/**
 * Reading and looking are safe. Opening a site sends it a request (medium), unless it is the
 * user's own app on this machine (low); clicks and typing can submit forms, buy, post or delete
 * on the site's side (medium); a screenshot written into the project adds a file (low).
 */
export function actionRisk(args: BrowserAction): Risk {
  switch (args.action) {
    case "navigate":
      return isLoopbackUrl(args.url) ? "low" : "medium";
    case "click":
    case "type":
      return "medium";
    case "screenshot":
      return args.path === undefined ? "safe" : "low";
    default:
      return "safe";
  }
}

/** Judged without DNS: a name counts as loopback only when it is `localhost` or below it. */
function isLoopbackUrl(url: string): boolean {
  const target = preflightUrl(url, { allowLoopback: true });
  if (!target.ok) return false;
  if (target.kind === "address") return target.address.class === "loopback";
  return isLocalhostName(target.hostname);
}
