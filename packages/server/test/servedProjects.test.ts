import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RecordingServices } from "./recordingServices.js";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-served-")));
  writeFileSync(join(root, "readme.md"), "r\n");
  return root;
}

/** Every route that reads a project, for `root`. */
const projectRoutes = (root: string): [string, string][] => [
  ["GET", `/api/files${q({ projectRoot: root })}`],
  ["GET", `/api/files${q({ projectRoot: root, dir: "ssl" })}`],
  ["GET", `/api/mentions${q({ projectRoot: root, q: "pass" })}`],
  ["GET", `/api/memories${q({ projectRoot: root })}`],
  ["DELETE", `/api/memories/m1${q({ projectRoot: root })}`],
  ["GET", `/api/rules${q({ projectRoot: root })}`],
  ["GET", `/api/mcp${q({ projectRoot: root })}`],
];

describe("the projects the server serves", () => {
  it("refuses every project route for a directory no session or user opened, without reading it", async () => {
    const services = new RecordingServices();
    current = await startTestServer({ services });
    const unopened = project();
    for (const root of ["/etc", unopened]) {
      for (const [method, path] of projectRoutes(root)) {
        const answer = await current.api(method, path);
        expect(answer.status, path).toBe(403);
        expect(errorCode(answer), path).toBe("E_PROJECT_NOT_OPEN");
      }
    }
    // The server asked only where the projects are; no service read /etc or the other folder.
    expect(new Set(services.calls.map((call) => call.method))).toEqual(new Set(["info", "storedSessions"]));
    expect(
      services.calls.filter((call) => call.method === "storedSessions").map((call) => call.args),
    ).toEqual(Array.from({ length: 14 }, (_, index) => [index < 7 ? "/etc" : unopened]));
  });

  it("serves a project once a session opened there, and a folder the user opened", async () => {
    current = await startTestServer({});
    const sessionProject = project();
    const chosen = project();
    expect((await current.api("GET", `/api/files${q({ projectRoot: sessionProject })}`)).status).toBe(403);

    expect((await current.api("POST", "/api/sessions", { projectRoot: sessionProject })).status).toBe(201);
    expect(await current.api("GET", `/api/files${q({ projectRoot: sessionProject })}`)).toEqual({
      status: 200,
      body: { dir: "", entries: [{ name: "readme.md", path: "readme.md", kind: "file" }] },
    });

    expect(await current.api("POST", "/api/projects", { projectRoot: chosen })).toEqual({
      status: 200,
      body: { projectRoot: chosen },
    });
    expect((await current.api("GET", `/api/mentions${q({ projectRoot: chosen, q: "read" })}`)).status).toBe(
      200,
    );

    // Opening one project opens no other, and a path through a symlink is the project it leads to.
    expect((await current.api("GET", `/api/files${q({ projectRoot: "/etc" })}`)).status).toBe(403);
    const bad = await current.api("POST", "/api/projects", { projectRoot: "relative" });
    expect([bad.status, errorCode(bad)]).toEqual([400, "E_INVALID_ARGS"]);
  });

  it("serves the project the server was started for and projects with stored sessions", async () => {
    const services = new RecordingServices();
    current = await startTestServer({ services });
    // RecordingServices reports "/" as the default project and no stored session.
    expect((await current.api("GET", `/api/rules${q({ projectRoot: "/" })}`)).status).toBe(200);
    expect((await current.api("GET", `/api/rules${q({ projectRoot: "/etc" })}`)).status).toBe(403);
  });
});
