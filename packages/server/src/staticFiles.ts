import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { pathSegments } from "./urlPath.js";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};

const pageHeaders = {
  "x-content-type-options": "nosniff",
  // The token may have been in this page's URL: never hand it to another site.
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  // The UI renders what models write: should any of it slip through as markup, it can neither
  // run script nor send data anywhere but back to this server.
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

const placeholder = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lathe</title></head>
<body><h1>Lathe server</h1>
<p>The server is running, but no web UI was built into it. The HTTP API is under <code>/api/sessions</code>.</p>
</body></html>
`;

/**
 * Serves the built web UI: `/` is `index.html`, an extension-less path that is not a file is the
 * app's own route (also `index.html`), and nothing outside `root` is ever read, symlinks included.
 */
export async function serveStatic(
  root: string | undefined,
  pathname: string,
  method: "GET" | "HEAD",
  response: ServerResponse,
): Promise<void> {
  if (root === undefined) {
    if (pathname === "/" || pathname === "/index.html")
      return send(response, 200, ".html", method, placeholder);
    return send(response, 404, ".txt", method, "Not found\n");
  }
  const file = await resolveFile(root, pathname);
  if (file === undefined) return send(response, 404, ".txt", method, "Not found\n");
  response.writeHead(200, {
    ...pageHeaders,
    "content-type": contentTypes[extname(file.path).toLowerCase()] ?? "application/octet-stream",
    "content-length": file.size,
    "cache-control": "no-cache",
  });
  if (method === "HEAD") {
    response.end();
    return;
  }
  // A read error or a client gone mid-file rejects here; the caller then drops the connection.
  await pipeline(createReadStream(file.path), response);
}

interface FoundFile {
  path: string;
  size: number;
}

async function resolveFile(root: string, pathname: string): Promise<FoundFile | undefined> {
  const segments = pathSegments(pathname);
  // Decoded separators (`%2f`, `%5c`) would smuggle extra path levels into one segment.
  const unsafe = (part: string) => part === ".." || /[/\\\0]/.test(part);
  if (segments === undefined || segments.some(unsafe)) return undefined;
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return undefined;
  const wanted = segments.length === 0 ? "index.html" : join(...segments);
  return (
    (await inside(realRoot, wanted)) ??
    (extname(wanted) === "" ? await inside(realRoot, "index.html") : undefined)
  );
}

/** A regular file under `realRoot` (after following symlinks), or undefined. */
async function inside(realRoot: string, wanted: string): Promise<FoundFile | undefined> {
  const real = await realpath(join(realRoot, wanted)).catch(() => undefined);
  if (real === undefined) return undefined;
  const path = relative(realRoot, real);
  if (path === "" || path === ".." || path.startsWith(`..${sep}`)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? { path: real, size: info.size } : undefined;
}

function send(response: ServerResponse, status: number, type: string, method: string, text: string): void {
  response.writeHead(status, {
    ...pageHeaders,
    "content-type": contentTypes[type] ?? "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  response.end(method === "HEAD" ? undefined : text);
}
