// A real MCP server over stdio for the hub's tests, built with the SDK's McpServer.
// With SPAWN_HELPER=1 it starts a child that ignores stdin, as wrapper-launched servers do, so
// the tests can check that closing ends the whole process group. With REFUSE_IF_EXISTS=<file>
// it will not start while that file exists, so a restart can be made to fail. With
// START_GATE=<file> it does not answer the handshake until that file exists (a server slow to
// start, released by the test); with FAIL_AT_START=1 it exits at once with an error.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

if (process.env.REFUSE_IF_EXISTS !== undefined && existsSync(process.env.REFUSE_IF_EXISTS)) {
  console.error("refusing to start: the guard file exists");
  process.exit(1);
}

if (process.env.FAIL_AT_START === "1") {
  console.error("cannot open the widget database");
  process.exit(1);
}

const helper =
  process.env.SPAWN_HELPER === "1"
    ? spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })
    : undefined;

const server = new McpServer({ name: "lathe-test-stdio", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

server.registerTool(
  "echo",
  {
    description: "Echoes the text back.",
    inputSchema: { text: z.string().describe("What to echo"), times: z.number().int().optional() },
  },
  async ({ text: value, times }) => text(Array.from({ length: times ?? 1 }, () => value).join(" ")),
);

server.registerTool("fail", { description: "Always reports an error." }, async () => ({
  isError: true,
  content: [{ type: "text", text: "the widget is broken" }],
}));

server.registerTool(
  "sleep",
  { description: "Waits, then answers.", inputSchema: { ms: z.number() } },
  async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return text(`slept ${ms} ms`);
  },
);

server.registerTool(
  "huge",
  { description: "Answers with many numbered lines.", inputSchema: { lines: z.number().int() } },
  async ({ lines }) => text(Array.from({ length: lines }, (_, index) => `line ${index + 1}`).join("\n")),
);

server.registerTool("mixed", { description: "Answers with text, an image and a resource." }, async () => ({
  content: [
    { type: "text", text: "here you go" },
    { type: "image", mimeType: "image/png", data: Buffer.alloc(300).toString("base64") },
    { type: "resource", resource: { uri: "notes://inline", text: "inline resource text" } },
  ],
}));

server.registerTool("environment", { description: "Reports its environment and directory." }, async () =>
  text(
    JSON.stringify({
      testVar: process.env.LATHE_MCP_TEST_VAR ?? null,
      parentSecret: process.env.LATHE_MCP_PARENT_SECRET ?? null,
      hasPath: process.env.PATH !== undefined,
      cwd: process.cwd(),
    }),
  ),
);

server.registerTool("pids", { description: "Reports its pid and its helper's." }, async () =>
  text(JSON.stringify({ pid: process.pid, helper: helper?.pid ?? null })),
);

server.registerTool("crash", { description: "Exits without answering." }, async () => {
  process.exit(3);
});

server.registerResource(
  "readme",
  "notes://readme",
  { description: "The project notes", mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, text: "Read me first." }] }),
);

server.registerResource("logo", "notes://logo", { mimeType: "image/png" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "image/png", blob: Buffer.alloc(10).toString("base64") }],
}));

// The additions below only with EXTRAS=1, so the lists other tests check stay as they are.
const extras = process.env.EXTRAS === "1";

if (extras)
  server.registerResource("long", "notes://long", { mimeType: "text/plain" }, async (uri) => ({
    contents: [
      { uri: uri.href, text: Array.from({ length: 3000 }, (_, index) => `note ${index + 1}`).join("\n") },
    ],
  }));

if (extras)
  server.registerPrompt(
    "greet",
    {
      description: "A greeting with an example answer.",
      argsSchema: { name: z.string(), tone: z.string().optional() },
    },
    ({ name, tone }) => ({
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Say hello to ${name}${tone ? ` in a ${tone} tone` : ""}.` },
        },
        { role: "assistant", content: { type: "text", text: "Hello!" } },
      ],
    }),
  );

// Adds a tool, a resource and a prompt while running: the SDK sends the list_changed notifications.
if (extras)
  server.registerTool(
    "grow",
    { description: "Adds the tool `grown`, a resource and a prompt." },
    async () => {
      server.registerTool("grown", { description: "Appeared after list_changed." }, async () =>
        text("grown here"),
      );
      server.registerResource("later", "notes://later", {}, async (uri) => ({
        contents: [{ uri: uri.href, text: "added later" }],
      }));
      server.registerPrompt("later", { description: "Added later." }, () => ({
        messages: [{ role: "user", content: { type: "text", text: "later prompt" } }],
      }));
      return text("grew");
    },
  );

server.registerPrompt(
  "review",
  { description: "Asks for a review of one file.", argsSchema: { file: z.string() } },
  ({ file }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Review ${file} carefully.` } }],
  }),
);

if (process.env.START_GATE !== undefined) {
  while (!existsSync(process.env.START_GATE)) await sleep(20);
}

await server.connect(new StdioServerTransport());
