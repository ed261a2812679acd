// Many scripted model servers behind one address: `lathe serve` has one base URL per provider,
// while each of the bench's runs follows its own script. A request goes to the script of the task
// its conversation names (`bench task N`).
import { createServer, request } from "node:http";
import { startFakeLlm } from "../../packages/testkit/dist/index.js";

export const taskMarker = (index) => `bench task ${index}.`;
const markerPattern = /bench task (\d+)\./;

/** Starts `scripts.length` scripted servers and the router in front of them. */
export async function startTaskModels(scripts) {
  const models = await Promise.all(scripts.map((script) => startFakeLlm({ script })));
  let misrouted = 0;
  const router = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const target = models[Number(markerPattern.exec(body.toString("utf8"))?.[1] ?? -1)];
      if (!target) {
        misrouted += 1;
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no task named"}');
        return;
      }
      const forward = request(
        `${target.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise((resolve) => router.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${router.address().port}`,
    misrouted: () => misrouted,
    async close() {
      await new Promise((resolve) => router.close(resolve));
      await Promise.all(models.map((model) => model.close()));
    },
  };
}
