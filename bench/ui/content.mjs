// What the web UI benchmark feeds the page: long markdown answers with code blocks, a project of
// files and an apply_patch envelope that touches every one of them.

const codeSample = (n) =>
  [
    "```ts",
    `export function handler${n}(request: Request): Response {`,
    `  const url = new URL(request.url);`,
    `  if (url.pathname === "/item/${n}") {`,
    `    return new Response(JSON.stringify({ id: ${n}, ok: true }), { status: 200 });`,
    "  }",
    `  // Everything else is not ours: say so plainly.`,
    `  return new Response("not found", { status: 404 });`,
    "}",
    "```",
  ].join("\n");

/** One section of an answer: a heading, prose with inline code and emphasis, a list, a code block. */
function section(n) {
  return [
    `### Step ${n}: route \`/item/${n}\``,
    "",
    `The handler for item ${n} checks the **path** first and answers with _JSON_ when it matches; ` +
      "anything else falls through to a plain 404, which keeps the router easy to read and to test.",
    "",
    `- parse the URL once (\`new URL(request.url)\`)`,
    `- compare the path with \`/item/${n}\``,
    "- answer 200 with the body, or 404",
    "",
    codeSample(n),
    "",
  ].join("\n");
}

/** Markdown of at least `characters` characters: sections of prose, lists and TypeScript. */
export function longMarkdown(characters) {
  const parts = ["## Plan\n\nHere is the whole change, one route at a time.\n"];
  let length = parts[0].length;
  for (let n = 1; length < characters; n++) {
    const next = section(n);
    parts.push(next);
    length += next.length + 1;
  }
  return parts.join("\n");
}

/** A short answer with a code block, different for each n. */
export function shortAnswer(n) {
  return [
    `Answer ${n}: the function below does it.`,
    "",
    codeSample(n),
    "",
    `It returns **200** for \`/item/${n}\` and 404 otherwise.`,
  ].join("\n");
}

/** `count` small source files, `src/file000.ts` …, twenty lines each. */
export function projectFiles(count) {
  const files = {};
  for (let i = 0; i < count; i++) {
    const lines = [];
    for (let line = 1; line <= 20; line++) lines.push(`export const value${line} = ${i * 100 + line};`);
    files[fileName(i)] = `${lines.join("\n")}\n`;
  }
  return files;
}

function fileName(i) {
  return `src/file${String(i).padStart(3, "0")}.ts`;
}

/** An apply_patch envelope changing two lines in each of the first `count` project files. */
export function patchForFiles(count) {
  const lines = ["*** Begin Patch"];
  for (let i = 0; i < count; i++) {
    lines.push(`*** Update File: ${fileName(i)}`, "@@");
    for (let line = 4; line <= 9; line++) {
      const text = `export const value${line} = ${i * 100 + line};`;
      if (line === 6 || line === 7)
        lines.push(`-${text}`, `+export const value${line} = ${i * 100 + line} * 2;`);
      else lines.push(` ${text}`);
    }
  }
  lines.push("*** End Patch");
  return lines.join("\n");
}
