import { describe, expect, it } from "vitest";
import {
  type RouteRequest,
  type RouteTarget,
  routeTask,
  sensitiveFilesIn,
} from "../src/router/taskRouter.js";

const reachable: RouteRequest = { prompt: "", cloudReachable: true, sensitiveFiles: [] };

interface Row {
  name: string;
  request: Partial<RouteRequest>;
  target: RouteTarget;
  /** What the reason must say: its cause. */
  cause: RegExp;
}

const rows: Row[] = [
  {
    name: "--cloud wins over an unreachable database",
    request: { prompt: "fix the login bug", override: "cloud", cloudReachable: false },
    target: "cloud",
    cause: /--cloud given/,
  },
  {
    name: "--cloud wins over sensitive files and a task for this machine",
    request: { prompt: "take a screenshot", override: "cloud", sensitiveFiles: [".env"] },
    target: "cloud",
    cause: /--cloud given/,
  },
  {
    name: "--local wins over a task for the fleet",
    request: { prompt: "review the auth module", override: "local" },
    target: "local",
    cause: /--local given/,
  },
  {
    name: "an unreachable database keeps the task here",
    request: { prompt: "review the auth module", cloudReachable: false },
    target: "local",
    cause: /task database did not answer/,
  },
  {
    name: "an unreachable database comes before sensitive files",
    request: { prompt: "fix it", cloudReachable: false, sensitiveFiles: [".env"] },
    target: "local",
    cause: /did not answer/,
  },
  {
    name: "sensitive files in the upload keep the task here",
    request: { prompt: "review the auth module", sensitiveFiles: [".env", "config/id_rsa"] },
    target: "local",
    cause: /Sensitive files would leave this machine \(\.env, config\/id_rsa\).*--cloud sends them anyway/,
  },
  {
    name: "at most three sensitive files are named",
    request: { prompt: "fix it", sensitiveFiles: [".env", "a.pem", "b.key", "c/.env.local", ".ssh/x"] },
    target: "local",
    cause: /\(\.env, a\.pem, b\.key and 2 more\)/,
  },
  {
    name: "a screenshot needs this machine",
    request: { prompt: "Take a Screenshot of the login page" },
    target: "local",
    cause: /needs this machine \("screenshot"\)/,
  },
  {
    name: "the user's browser",
    request: { prompt: "open the dashboard in my   browser and check the layout" },
    target: "local",
    cause: /\("my browser"\)/,
  },
  {
    name: "asking the user along the way",
    request: { prompt: "set up the project, ask me before each step" },
    target: "local",
    cause: /\("ask me"\)/,
  },
  {
    name: "截图 needs this machine",
    request: { prompt: "帮我截图看看页面" },
    target: "local",
    cause: /\("截图"\)/,
  },
  {
    name: "a review is reasoning, even of a complex codebase",
    request: { prompt: "Review the architecture of the whole codebase" },
    target: "cloud",
    cause: /reasoning task \("review"\)/,
  },
  {
    name: "planning a migration is reasoning, not the migration",
    request: { prompt: "Plan the migration from Jest to Vitest" },
    target: "cloud",
    cause: /reasoning task \("plan"\)/,
  },
  {
    name: "审查 is reasoning",
    request: { prompt: "审查整个项目的安全性" },
    target: "cloud",
    cause: /reasoning task \("审查"\)/,
  },
  {
    name: "解释 is reasoning",
    request: { prompt: "解释一下迁移脚本的逻辑" },
    target: "cloud",
    cause: /reasoning task \("解释"\)/,
  },
  {
    name: "a refactor is split: planned in the cloud",
    request: { prompt: "Refactor the auth module to use JWT" },
    target: "hybrid",
    cause: /complex task \(complex-task words: "refactor"\): plans in the cloud/,
  },
  {
    name: "a change that also documents is still the change",
    request: { prompt: "Migrate the database layer to Drizzle and document it" },
    target: "hybrid",
    cause: /complex-task words: "migrate"/,
  },
  {
    name: "documentation as the last of several changes is part of the change",
    request: { prompt: "添加用户注册功能，然后编写测试，并且更新文档" },
    target: "hybrid",
    cause: /complex task \(.*3 steps.*\): plans in the cloud/,
  },
  {
    name: "a change word after the reasoning verb is a noun of it",
    request: { prompt: "Explain the fix for the login bug" },
    target: "cloud",
    cause: /reasoning task \("explain"\)/,
  },
  {
    name: "重构 is complex",
    request: { prompt: "重构整个项目的数据库层" },
    target: "hybrid",
    cause: /complex-task words: "重构", "整个"/,
  },
  {
    name: "a plain change goes to the fleet",
    request: { prompt: "fix the off-by-one in the pager" },
    target: "cloud",
    cause: /on the fleet in its own checkout/,
  },
  {
    name: "words inside paths, flags and identifiers do not count",
    request: { prompt: "fix docs/review.ts so --interactive calls onClick and click_handler" },
    target: "cloud",
    cause: /on the fleet in its own checkout/,
  },
  {
    name: "a reviewer is not a review",
    request: { prompt: "add the reviewer field to pull requests" },
    target: "cloud",
    cause: /on the fleet in its own checkout/,
  },
];

describe("routeTask", () => {
  it.each(rows)("$name", ({ request, target, cause }) => {
    const route = routeTask({ ...reachable, ...request });
    expect(route.target).toBe(target);
    expect(route.reason).toMatch(cause);
  });
});

describe("sensitiveFilesIn", () => {
  it("keeps exactly the sensitive paths, judged by whole segments", () => {
    expect(
      sensitiveFilesIn([
        "src/index.ts",
        ".env",
        ".env.example",
        "config/id_rsa",
        "src/my.environment.ts",
        "deploy/server.pem",
        "README.md",
      ]),
    ).toEqual([".env", "config/id_rsa", "deploy/server.pem"]);
  });

  it("counts files that hold secrets, not the configuration the policy guards for edits", () => {
    expect(
      sensitiveFilesIn([
        ".lathe/settings.json",
        ".bashrc",
        ".cursor/mcp.json",
        ".aws/config",
        "keys/credentials.json",
      ]),
    ).toEqual([".aws/config", "keys/credentials.json"]);
  });
});
