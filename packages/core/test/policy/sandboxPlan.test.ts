import { describe, expect, it } from "vitest";
import { sandboxDenial, sandboxDenialNote } from "../../src/policy/sandbox/sandboxDenial.js";
import { sandboxForCall, sandboxPlan } from "../../src/policy/sandbox/sandboxPlan.js";
import type { SandboxDetection, SandboxSettings } from "../../src/policy/sandbox/sandboxTypes.js";

const present: SandboxDetection = { available: true, bwrapPath: "/usr/bin/bwrap" };
const missing: SandboxDetection = { available: false, reason: "bubblewrap (bwrap) is not installed" };
const noNetworkAsked = { needsNetwork: false, userAllowedNetwork: false };
const settings = (mode: SandboxSettings["mode"], network = false): SandboxSettings => ({ mode, network });

describe("sandboxPlan", () => {
  it("runs unsandboxed in off mode, bwrap or not, without a notice", () => {
    expect(sandboxPlan(settings("off"), present, noNetworkAsked)).toEqual({ kind: "unsandboxed" });
    expect(sandboxPlan(settings("off"), missing, noNetworkAsked)).toEqual({ kind: "unsandboxed" });
  });

  it("sandboxes without network in auto and required modes when bwrap works", () => {
    expect(sandboxPlan(settings("auto"), present, noNetworkAsked)).toEqual({
      kind: "sandboxed",
      network: false,
    });
    expect(sandboxPlan(settings("required"), present, noNetworkAsked)).toEqual({
      kind: "sandboxed",
      network: false,
    });
  });

  it("runs unsandboxed in auto mode without bwrap, with a notice that says why", () => {
    expect(sandboxPlan(settings("auto"), missing, noNetworkAsked)).toEqual({
      kind: "unsandboxed",
      notice: "Commands run without a sandbox: bubblewrap (bwrap) is not installed.",
    });
  });

  it("refuses in required mode without bwrap, with E_SANDBOX_DENIED", () => {
    const plan = sandboxPlan(settings("required"), missing, noNetworkAsked);
    expect(plan.kind).toBe("refused");
    if (plan.kind !== "refused") return;
    expect(plan.error.code).toBe("E_SANDBOX_DENIED");
    expect(plan.error.message).toBe(
      "The sandbox is required but unavailable: bubblewrap (bwrap) is not installed. Install " +
        "bubblewrap (bwrap) with user namespaces enabled, or change the sandbox mode to auto or off.",
    );
  });

  it("treats bwrap present but unusable like no bwrap", () => {
    const unusable: SandboxDetection = {
      available: false,
      reason:
        "bubblewrap is installed but cannot sandbox here (bwrap: setting up uid map: Permission denied)",
      bwrapPath: "/usr/bin/bwrap",
    };
    expect(sandboxPlan(settings("auto"), unusable, noNetworkAsked).kind).toBe("unsandboxed");
    expect(sandboxPlan(settings("required"), unusable, noNetworkAsked).kind).toBe("refused");
  });

  it("opens the network only for a call that needs it and was approved, or when the settings allow it", () => {
    const auto = settings("auto");
    expect(sandboxPlan(auto, present, { needsNetwork: true, userAllowedNetwork: true })).toEqual({
      kind: "sandboxed",
      network: true,
    });
    expect(sandboxPlan(auto, present, { needsNetwork: true, userAllowedNetwork: false })).toEqual({
      kind: "sandboxed",
      network: false,
    });
    expect(sandboxPlan(auto, present, { needsNetwork: false, userAllowedNetwork: true })).toEqual({
      kind: "sandboxed",
      network: false,
    });
    expect(sandboxPlan(settings("auto", true), present, noNetworkAsked)).toEqual({
      kind: "sandboxed",
      network: true,
    });
  });

  it("runs outside the sandbox a call the user approved for that, in every mode", () => {
    const approved = { ...noNetworkAsked, userAllowedOutside: true };
    expect(sandboxPlan(settings("auto"), present, approved)).toEqual({ kind: "unsandboxed" });
    expect(sandboxPlan(settings("required"), present, approved)).toEqual({ kind: "unsandboxed" });
    expect(sandboxPlan(settings("required"), missing, approved)).toEqual({ kind: "unsandboxed" });
  });
});

describe("sandboxForCall", () => {
  const context = {
    settings: settings("auto"),
    detection: present,
    tempDir: "/var/tmp/session",
    writableRoots: ["/srv/shared"],
    unsandboxedCallIds: new Set(["retried"]),
    networkCallIds: new Set(["fetching"]),
  };

  it("runs unsandboxed when the engine gives no sandbox context, as before sandboxing", () => {
    expect(sandboxForCall(undefined, { callId: "c", projectRoot: "/p" })).toEqual({ kind: "unsandboxed" });
  });

  it("builds the launch from the context, with the network only for granted call ids", () => {
    expect(sandboxForCall(context, { callId: "plain", projectRoot: "/p" })).toEqual({
      kind: "sandboxed",
      launch: {
        bwrapPath: "/usr/bin/bwrap",
        projectRoot: "/p",
        tempDir: "/var/tmp/session",
        writableRoots: ["/srv/shared"],
        network: false,
      },
    });
    const fetching = sandboxForCall(context, { callId: "fetching", projectRoot: "/p" });
    expect(fetching.kind === "sandboxed" && fetching.launch.network).toBe(true);
    expect(sandboxForCall(context, { callId: "retried", projectRoot: "/p" })).toEqual({
      kind: "unsandboxed",
    });
  });
});

describe("sandboxDenial", () => {
  const roots = { writableRoots: ["/work/project"] };

  it("recognises writes to read-only places and blocked network, in the words of common tools", () => {
    const denials = [
      "touch: cannot touch '/etc/x': Read-only file system",
      "npm ERR! code EROFS\nnpm ERR! syscall mkdir",
      "curl: (7) Couldn't connect to server: Network is unreachable",
      "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
      "ping: example.com: Temporary failure in name resolution",
      "Error: getaddrinfo EAI_AGAIN registry.npmjs.org",
      "bwrap: Can't find source path /var/tmp/gone: No such file or directory",
    ];
    for (const stderr of denials) expect(sandboxDenial(1, stderr, roots), stderr).toBe(true);
  });

  it("counts a refused local connection only when the network was cut", () => {
    const stderr = "bash: connect: Connection refused\nbash: /dev/tcp/127.0.0.1/3000: Connection refused";
    expect(sandboxDenial(1, stderr, { networkCut: true })).toBe(true);
    expect(sandboxDenial(1, stderr, { networkCut: false })).toBe(false);
  });

  it("counts Permission denied only on a path outside the writable places", () => {
    expect(sandboxDenial(1, "bash: /home/u/.cache/x: Permission denied", roots)).toBe(true);
    expect(sandboxDenial(1, "bash: ./build.sh: Permission denied", roots)).toBe(false);
    expect(sandboxDenial(126, "bash: /work/project/build.sh: Permission denied", roots)).toBe(false);
    expect(sandboxDenial(1, "cp: cannot create '/tmp/x': Permission denied", roots)).toBe(false);
    expect(sandboxDenial(255, "git@github.com: Permission denied (publickey).", roots)).toBe(false);
  });

  it("also reads stdout, where test runners report", () => {
    const stdout = "FAIL src/cache.test.ts\nError: EROFS: read-only file system, open '/home/u/.cache/a'";
    expect(sandboxDenial(1, "", { stdout })).toBe(true);
  });

  it("never flags a success, a kill by signal or an ordinary failure", () => {
    expect(sandboxDenial(0, "Read-only file system")).toBe(false);
    expect(sandboxDenial(null, "Read-only file system")).toBe(false);
    expect(sandboxDenial(1, "src/a.ts(3,1): error TS2304: Cannot find name 'x'.")).toBe(false);
  });

  it("tells the model what the sandbox allows and that only the user can lift it", () => {
    expect(sandboxDenialNote(false)).toBe(
      "[sandbox] This command looks blocked by the sandbox (commands may write only inside the " +
        "project and /tmp, and have no network). Do not try to get around the sandbox: the user " +
        "can approve running this command again outside it.",
    );
  });
});
