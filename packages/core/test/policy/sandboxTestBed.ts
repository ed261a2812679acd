import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type {
  SandboxContext,
  SandboxDetection,
  SandboxSettings,
} from "../../src/policy/sandbox/sandboxTypes.js";
import { FileReadLedger } from "../../src/tools/fileReadLedger.js";
import { BackgroundTerminals } from "../../src/tools/terminals/backgroundTerminals.js";
import { defaultOutputLimits, type ToolContext } from "../../src/tools/tool.js";

export interface SandboxTestBed {
  /** Real path of a fresh project directory. */
  projectRoot: string;
  /** A sibling of the project, visible (read-only) inside the sandbox. */
  outside: string;
  /** The session's private /tmp on the host. */
  sessionTmp: string;
  terminals: BackgroundTerminals;
  context(options: {
    detection: SandboxDetection;
    settings?: Partial<SandboxSettings>;
    callId?: string;
    unsandboxedCallIds?: string[];
    networkCallIds?: string[];
    writableRoots?: string[];
  }): ToolContext;
  cleanup(): Promise<void>;
}

/**
 * Real directories beside each other. The base is not under the host's /tmp when that can be
 * helped: the sandbox replaces /tmp with the session's own, so a sibling there would not even be
 * visible, and the test wants to see a write to a visible directory refused.
 */
export function createSandboxTestBed(): SandboxTestBed {
  const base = realpathSync(mkdtempSync(path.join(visibleTempParent(), "lathe-sandbox-test-")));
  const projectRoot = path.join(base, "project");
  const outside = path.join(base, "outside");
  const sessionTmp = path.join(base, "session-tmp");
  for (const directory of [projectRoot, outside]) mkdirSync(directory);
  const terminals = new BackgroundTerminals({ killGraceMs: 300 });
  const ledger = new FileReadLedger();
  return {
    projectRoot,
    outside,
    sessionTmp,
    terminals,
    context: (options) => {
      const sandbox: SandboxContext = {
        settings: { mode: "auto", network: false, ...options.settings },
        detection: options.detection,
        tempDir: sessionTmp,
        writableRoots: options.writableRoots,
        unsandboxedCallIds: new Set(options.unsandboxedCallIds ?? []),
        networkCallIds: new Set(options.networkCallIds ?? []),
      };
      return {
        projectRoot,
        sessionId: "session-1",
        callId: options.callId ?? "call-1",
        latheHome: path.join(base, "lathe-home"),
        signal: new AbortController().signal,
        emitOutput: () => {},
        fileReads: ledger,
        terminals,
        outputLimits: defaultOutputLimits,
        sandbox,
      };
    },
    cleanup: async () => {
      await terminals.killAll();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function visibleTempParent(): string {
  try {
    accessSync("/var/tmp", constants.W_OK);
    return "/var/tmp";
  } catch {
    return tmpdir();
  }
}

export interface CountingServer {
  port: number;
  requests(): number;
  close(): Promise<void>;
}

/** An HTTP server on the host's loopback that counts what reaches it. */
export async function startCountingServer(): Promise<CountingServer> {
  let count = 0;
  const server: Server = createServer((_request, response) => {
    count += 1;
    response.end("hello from the host\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Fetches `/` from the loopback with bash alone, so the test needs no curl. */
export function loopbackGet(port: number): string {
  return (
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' >&3 && ` +
    "sed -n '$p' <&3"
  );
}
