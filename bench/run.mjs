// `npm run bench [name…]`: runs every benchmark (a folder here with a bench.mjs) or the named
// ones, prints a table of their figures and writes bench/results/latest.json.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const available = readdirSync(here).filter((name) => existsSync(join(here, name, "bench.mjs")));
const wanted = process.argv.slice(2).filter((arg) => arg !== "--");
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark ${unknown.join(", ")}; available: ${available.join(", ")}`);
  process.exit(2);
}

const results = {};
for (const name of wanted.length > 0 ? wanted : available) {
  const { run } = await import(join(here, name, "bench.mjs"));
  console.log(`\n== ${name}`);
  const figures = await run();
  results[name] = figures;
  console.table(
    figures.map(({ metric, value, unit, target }) => ({ metric, value, unit, target: target ?? "" })),
  );
}

const machine = {
  node: process.version,
  platform: platform(),
  arch: arch(),
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};
mkdirSync(join(here, "results"), { recursive: true });
writeFileSync(
  join(here, "results", "latest.json"),
  `${JSON.stringify({ at: new Date().toISOString(), machine, results }, null, 2)}\n`,
);
console.log(`\nwritten bench/results/latest.json (${machine.cpus} × ${machine.cpu}, Node ${machine.node})`);
