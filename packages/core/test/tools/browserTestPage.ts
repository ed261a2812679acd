import http from "node:http";
import type { AddressInfo } from "node:net";

/** A site on 127.0.0.1 for the browser tests; it never points the browser at a public address. */
export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

const home = `<!doctype html>
<html><head><title>Test page</title></head>
<body>
  <p id="out">before</p>
  <button id="go" onclick="document.getElementById('out').textContent = 'after'; console.log('clicked!'); console.warn('careful')">Change text</button>
  <form action="/echo" method="post"><input id="q" name="q"><button type="submit">Send</button></form>
  <script>setTimeout(() => { const late = document.createElement('p'); late.id = 'late'; late.textContent = 'late'; document.body.append(late); }, 300);</script>
</body></html>`;

const tall = `<!doctype html><html><head><title>Tall</title></head>
<body style="margin:0"><div style="height:3000px;background:linear-gradient(#fff,#000)">tall</div></body></html>`;

// A public page could do this: an image the browser would fetch from the private network.
const privateImage = `<!doctype html><html><head><title>Private image</title></head>
<body><p>with image</p><img src="http://10.1.2.3/pixel.png"></body></html>`;

const redirects: Record<string, string> = {
  "/redirect-to-metadata": "http://169.254.169.254/latest/meta-data/",
  // HTTPS goes through a CONNECT tunnel, which the guard must refuse as well.
  "/redirect-to-private-https": "https://10.0.0.1/admin",
};

export async function startTestSite(): Promise<TestSite> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push(url.pathname);
    if (url.pathname === "/favicon.ico") {
      // Without one, the browser logs a 404 to the console the tests read.
      response.writeHead(204).end();
      return;
    }
    const redirect = redirects[url.pathname];
    if (redirect !== undefined) {
      response.writeHead(302, { location: redirect }).end();
      return;
    }
    if (url.pathname === "/echo") {
      // A POST, so the form's body has to pass through the browser's guard proxy intact.
      readBody(request).then(
        (body) => {
          const typed = new URLSearchParams(body).get("q") ?? "";
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(echoPage(typed));
        },
        () => response.destroy(),
      );
      return;
    }
    const page = pageFor(url.pathname);
    if (page === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function pageFor(pathname: string): string | undefined {
  switch (pathname) {
    case "/":
      return home;
    case "/tall":
      return tall;
    case "/private-image":
      return privateImage;
    default:
      return undefined;
  }
}

function echoPage(typed: string): string {
  return `<!doctype html><html><head><title>Echo</title></head><body><p id="echo">${escapeHtml(typed)}</p></body></html>`;
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
