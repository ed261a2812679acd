import { rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CodeIndexBed, createCodeIndexBed, never } from "./codeIndexTestBed.js";

let bed: CodeIndexBed;
beforeEach(() => {
  bed = createCodeIndexBed();
});
afterEach(() => bed.cleanup());

const parser = `import { readFileSync } from "node:fs";

/** Reads the settings file and returns its entries. */
export function loadSettingsFile(location: string): Settings {
  const text = readFileSync(location, "utf8");
  return JSON.parse(text) as Settings;
}

export class RetryPolicy {
  /** Waits longer after each failed attempt. */
  nextDelay(attempt: number): number {
    return 100 * 2 ** attempt;
  }
}
`;

const server = `def start_http_server(port):
    """Listen for requests on the given port."""
    return bind_socket(port)
`;

/** A small project with the files an index must skip beside the ones it keeps. */
function writeProject(): void {
  bed.write("src/settings.ts", parser);
  bed.write("py/server.py", server);
  bed.write("README.md", "# Demo\n\nHow the settings are loaded.\n");
  bed.write(".gitignore", "generated/\n");
  bed.write("generated/out.ts", "export function generatedThing() {}\n");
  bed.write("node_modules/dep/index.js", "function dependencyThing() {}\n");
  bed.write("package-lock.json", "{}\n");
  bed.write("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  bed.write("blob.dat", Buffer.from("text\0with a NUL byte"));
  bed.write("huge.txt", "x".repeat(1024 * 1024 + 1));
}

describe("CodeIndex.refresh", () => {
  it("indexes the project's text files, skipping ignored, generated, binary and oversized ones", async () => {
    writeProject();
    const index = bed.open();
    const result = await index.refresh();
    // src/settings.ts, py/server.py, README.md and .gitignore itself.
    expect(result).toMatchObject({ files: 4, changed: 4, removed: 0 });
    expect(result.chunks).toBeGreaterThanOrEqual(5);
    expect(result.ms).toBeGreaterThanOrEqual(0);
    const paths = new Set(
      (await index.search("thing settings demo", { limit: 30 }, never)).map((hit) => hit.path),
    );
    expect([...paths].sort()).toEqual(["README.md", "src/settings.ts"]);
  });

  it("re-indexes only what changed: one edit, one deletion, nothing", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    expect(await index.refresh()).toMatchObject({ files: 4, changed: 0, removed: 0 });

    bed.write("py/server.py", `${server}\ndef stop_http_server():\n    pass\n`);
    expect(await index.refresh()).toMatchObject({ files: 4, changed: 1, removed: 0 });
    expect((await index.search("stop http server", { limit: 1 }, never))[0]?.symbol).toBe("stop_http_server");

    rmSync(path.join(bed.projectRoot, "README.md"));
    expect(await index.refresh()).toMatchObject({ files: 3, changed: 0, removed: 1 });
  });

  it("trusts an unchanged modification time and size without reading the file, and hashes when they move", async () => {
    const file = bed.write("a.ts", "export function alpha() {}\n");
    // Whole seconds: a time read back from the file system can carry more precision than it takes.
    const time = 1_700_000_000;
    utimesSync(file, time, time);
    const index = bed.open();
    await index.refresh();

    // Same size, same time: taken as unchanged, so the new word is not found.
    writeFileSync(file, "export function gamma() {}\n");
    utimesSync(file, time, time);
    expect(await index.refresh()).toMatchObject({ changed: 0 });
    expect(await index.search("gamma", { limit: 5 }, never)).toEqual([]);

    // A new time makes it read; the hash differs, so it is re-indexed.
    utimesSync(file, time, time + 5);
    expect(await index.refresh()).toMatchObject({ changed: 1 });
    expect((await index.search("gamma", { limit: 5 }, never))[0]?.symbol).toBe("gamma");

    // A new time with the same bytes: the hash matches, nothing is re-indexed.
    utimesSync(file, time, time + 10);
    expect(await index.refresh()).toMatchObject({ changed: 0 });
  });

  it("drops a file that became ignored, or binary", async () => {
    bed.write("a.ts", "export function alpha() {}\n");
    bed.write("b.ts", "export function beta() {}\n");
    const index = bed.open();
    await index.refresh();
    bed.write(".gitignore", "a.ts\n");
    bed.write("b.ts", Buffer.from("beta\0"));
    expect(await index.refresh()).toMatchObject({ files: 1, removed: 2 });
  });

  it("stops early when aborted, dropping nothing it has not seen", async () => {
    bed.write("a.ts", "export function alpha() {}\n");
    const index = bed.open();
    await index.refresh();
    const aborted = AbortSignal.abort();
    expect(await index.refresh(aborted)).toMatchObject({ files: 1, changed: 0, removed: 0 });
  });

  it("keeps projects sharing one database apart", async () => {
    bed.write("one/a.ts", "export function alphaWidget() {}\n");
    bed.write("two/b.ts", "export function betaWidget() {}\n");
    const first = bed.open({}, path.join(bed.projectRoot, "one"));
    const second = bed.open({}, path.join(bed.projectRoot, "two"));
    await first.refresh();
    await second.refresh();
    expect((await first.search("widget", { limit: 5 }, never)).map((hit) => hit.path)).toEqual(["a.ts"]);
    expect((await second.search("widget", { limit: 5 }, never)).map((hit) => hit.path)).toEqual(["b.ts"]);
  });
});

describe("CodeIndex.refreshPaths", () => {
  it("re-indexes edited files, drops deleted or ignored ones, and accepts absolute paths", async () => {
    bed.write("a.ts", "export function alpha() {}\n");
    bed.write("b.ts", "export function beta() {}\n");
    const index = bed.open();
    await index.refresh();

    const absolute = bed.write("a.ts", "export function alphaRenamed() {}\n");
    rmSync(path.join(bed.projectRoot, "b.ts"));
    bed.write("node_modules/x.ts", "export function hidden() {}\n");
    await index.refreshPaths([absolute, "b.ts", "node_modules/x.ts", "../outside.ts"]);

    expect((await index.search("alpha renamed", { limit: 5 }, never))[0]?.symbol).toBe("alphaRenamed");
    expect(await index.search("beta", { limit: 5 }, never)).toEqual([]);
    expect(await index.search("hidden", { limit: 5 }, never)).toEqual([]);
    expect(await index.refresh()).toMatchObject({ files: 1, changed: 0, removed: 0 });
  });
});

describe("CodeIndex.search", () => {
  it("finds a function from words of its name and body, with its kind, lines and snippet", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    const [first] = await index.search("read the settings file", { limit: 3 }, never);
    expect(first).toMatchObject({
      path: "src/settings.ts",
      startLine: 3,
      endLine: 7,
      symbol: "loadSettingsFile",
      kind: "function",
    });
    expect(first?.snippet.split("\n")[0]).toBe("/** Reads the settings file and returns its entries. */");

    const [method] = await index.search("delay after a failed attempt", { limit: 1 }, never);
    expect(method).toMatchObject({ symbol: "RetryPolicy", kind: "class" });
    const [python] = await index.search("listen for requests on a port", { limit: 1 }, never);
    expect(python).toMatchObject({ path: "py/server.py", symbol: "start_http_server" });
  });

  it("finds an identifier given as written", async () => {
    writeProject();
    const index = bed.open();
    await index.refresh();
    const [first] = await index.search("loadSettingsFile", { limit: 1 }, never);
    expect(first?.symbol).toBe("loadSettingsFile");
  });

  it("limits results to the given files and directories", async () => {
    bed.write("client/fetch.ts", "export function fetchOrders() {}\n");
    bed.write("server/orders.ts", "export function storeOrders() {}\n");
    bed.write("server/ordersTest.ts", "export function checkOrders() {}\n");
    const index = bed.open();
    await index.refresh();
    const paths = async (scope?: string[]) =>
      (await index.search("orders", { limit: 10, ...(scope ? { paths: scope } : {}) }, never))
        .map((hit) => hit.path)
        .sort();
    expect(await paths()).toEqual(["client/fetch.ts", "server/orders.ts", "server/ordersTest.ts"]);
    expect(await paths(["server"])).toEqual(["server/orders.ts", "server/ordersTest.ts"]);
    expect(await paths(["server/orders.ts", "client/"])).toEqual(["client/fetch.ts", "server/orders.ts"]);
    expect(await paths(["serv"])).toEqual([]);
    expect(await paths(["."])).toHaveLength(3);
  });

  it("ranks code above its tests unless tests are asked for", async () => {
    bed.write("src/invoice.ts", "export function totalInvoice(lines: Line[]) { return sum(lines); }\n");
    bed.write("test/invoice.test.ts", 'it("totals an invoice", () => totalInvoice(invoiceLines));\n');
    const index = bed.open();
    await index.refresh();
    expect((await index.search("invoice total", { limit: 2 }, never))[0]?.path).toBe("src/invoice.ts");
    expect((await index.search("invoice total test", { limit: 2 }, never))[0]?.path).toBe(
      "test/invoice.test.ts",
    );
  });

  it("stops when its signal is aborted", async () => {
    bed.write("a.ts", "export function alpha() {}\n");
    const index = bed.open();
    await index.refresh();
    await expect(index.search("alpha", { limit: 5 }, AbortSignal.abort())).rejects.toThrow();
  });
});

/**
 * A toy embedding that knows synonyms the words do not share: each text becomes the counts of
 * three concepts, so "feline" lands near code about cats though no word matches.
 */
const concepts = [/\b(cat|cats|feline|kitten)/gi, /\b(dog|dogs|canine|puppy)/gi, /\b(car|cars|vehicle)/gi];
const toyEmbedding = (text: string) => concepts.map((concept) => (text.match(concept) ?? []).length + 0.01);

describe("CodeIndex with embeddings", () => {
  it("embeds each chunk once and blends similarity with BM25", async () => {
    bed.write("pets/cats.ts", "export function groomCat(cat: Cat) { return brush(cat); }\n");
    bed.write("pets/dogs.ts", "export function walkDog(dog: Dog) { return leash(dog); }\n");
    bed.write("garage/cars.ts", "export function washCar(car: Car) { return rinse(car); }\n");
    const embedded: string[] = [];
    const embed = async (texts: string[]) => {
      embedded.push(...texts);
      return texts.map(toyEmbedding);
    };
    const index = bed.open({ embed, embeddingModel: "toy-1" });
    await index.refresh();
    expect(embedded).toHaveLength(3);

    const [first] = await index.search("feline", { limit: 3 }, never);
    expect(first?.symbol).toBe("groomCat");
    const [second] = await index.search("walk dog", { limit: 3 }, never);
    expect(second?.symbol).toBe("walkDog");

    embedded.length = 0;
    await index.refresh();
    bed.write("garage/cars.ts", "export function parkVehicle(car: Car) { return brake(car); }\n");
    await index.refreshPaths(["garage/cars.ts"]);
    // Only the changed file's chunk is embedded again.
    expect(embedded.filter((text) => text.startsWith("garage/"))).toHaveLength(1);
    expect(embedded.filter((text) => text.startsWith("pets/"))).toHaveLength(0);
  });

  it("re-embeds for another model, and searches with BM25 alone when embedding fails", async () => {
    bed.write("pets/cats.ts", "export function groomCat(cat: Cat) { return brush(cat); }\n");
    const first = bed.open({ embed: async (texts) => texts.map(toyEmbedding), embeddingModel: "toy-1" });
    await first.refresh();

    let calls = 0;
    const failing = bed.open({
      embed: async () => {
        calls++;
        throw new Error("the model is down");
      },
      embeddingModel: "toy-2",
    });
    expect(await failing.refresh()).toMatchObject({ changed: 0, embeddingError: "the model is down" });
    expect(calls).toBe(1);
    const [hit] = await failing.search("groom cat", { limit: 1 }, never);
    expect(hit?.symbol).toBe("groomCat");
  });
});

describe("the code index tables", () => {
  it("are rebuilt when they were written in another format", async () => {
    bed.write("a.ts", "export function alpha() {}\n");
    bed.write("b.ts", "export function beta() {}\n");
    await bed.open().refresh();
    bed.store.db.prepare("UPDATE code_roots SET format = 0").run();
    const reopened = bed.open();
    expect(await reopened.search("alpha", { limit: 5 }, never)).toEqual([]);
    expect(await reopened.refresh()).toMatchObject({ files: 2, changed: 2 });
    expect(await bed.open().refresh()).toMatchObject({ changed: 0 });
  });

  it("lose a file's rows when the file is dropped", async () => {
    bed.write("src/a.ts", "export function alpha() {}\nexport function beta() {}\n");
    const index = bed.open({ embed: async (texts) => texts.map(toyEmbedding) });
    await index.refresh();
    rmSync(path.join(bed.projectRoot, "src/a.ts"));
    await index.refresh();
    for (const table of ["code_files", "code_symbols", "code_chunks", "code_postings", "code_vectors"]) {
      const row = bed.store.db.prepare(`SELECT COUNT(*) AS count FROM ${table}`).get() as { count: number };
      expect([table, row.count]).toEqual([table, 0]);
    }
  });
});
