import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { saveRule } from "../../src/policy/rules/index.js";
import { checkWorkspaceTrust, grantWorkspaceTrust, keepTrustAcrossOwnWrite } from "../../src/trust/index.js";
import { createTrustBed, plantedHooks, type TrustBed } from "./trustBed.js";

let bed: TrustBed;
beforeEach(() => {
  bed = createTrustBed();
});
afterEach(() => bed.cleanup());

const locations = () => ({ projectRoot: bed.projectRoot, latheHome: bed.latheHome });
const check = () => checkWorkspaceTrust(locations());
const saveProjectRule = () =>
  keepTrustAcrossOwnWrite(locations(), () =>
    saveRule("run_terminal_cmd(npm test *)", "project-local", locations()),
  );

describe("keepTrustAcrossOwnWrite: an always-this-project rule the user granted", () => {
  it("leaves a folder that needed no trust trusted for the rule it now holds", async () => {
    expect(check().status).toBe("not_needed");
    expect((await saveProjectRule()).ok).toBe(true);
    const after = check();
    expect(after.files.map((file) => file.path)).toEqual([".lathe/settings.local.json"]);
    expect(after.status).toBe("trusted");
  });

  it("keeps a trusted folder trusted", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    expect(await grantWorkspaceTrust(bed.latheHome, check())).toEqual({ ok: true });
    await saveProjectRule();
    expect(check().status).toBe("trusted");
  });

  it("does not trust files the user never trusted", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    await saveProjectRule();
    expect(check().status).toBe("untrusted");
  });

  it("does not trust a folder whose files changed since the user trusted it", async () => {
    bed.write(".lathe/hooks.json", plantedHooks);
    await grantWorkspaceTrust(bed.latheHome, check());
    bed.write(".lathe/hooks.json", { hooks: {} });
    await saveProjectRule();
    const after = check();
    expect(after.status).toBe("changed");
    expect(after.changes).toEqual([
      { path: ".lathe/hooks.json", change: "edited" },
      { path: ".lathe/settings.local.json", change: "added" },
    ]);
  });
});
