import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import type { ShadowGit } from "./shadowGit.js";

/**
 * Bytes of content read per `git cat-file --batch`: few git processes for many small files, yet
 * a restore never holds more than this (plus one file) in memory.
 */
const bytesPerBatch = 32 * 1024 * 1024;

/**
 * Reads the blobs of `items` in their order and hands each to `each`. Bytes as stored: no filter
 * or conversion applies. Sizes are asked first (one process), so batches can be cut by bytes.
 */
export async function forEachBlob<T extends { id: string }>(
  git: ShadowGit,
  items: readonly T[],
  each: (item: T, content: Buffer) => Promise<void>,
): Promise<CheckpointOutcome<void>> {
  if (items.length === 0) return succeed(undefined);
  const sizes = await blobSizes(git, items);
  if (!sizes.ok) return sizes;
  let start = 0;
  while (start < items.length) {
    let end = start + 1;
    let bytes = sizes.value[start] ?? 0;
    while (end < items.length && bytes + (sizes.value[end] ?? 0) <= bytesPerBatch) {
      bytes += sizes.value[end] ?? 0;
      end++;
    }
    const batch = items.slice(start, end);
    const read = await git.run(["cat-file", "--batch"], {
      input: batch.map((item) => `${item.id}\n`).join(""),
    });
    if (!read.ok) return read;
    const parsed = parseBatch(read.value.stdout);
    if (!parsed.ok) return parsed;
    // git answers in the order asked, one record per line of input.
    for (const [index, item] of batch.entries()) {
      const content = parsed.value[index];
      if (content === undefined) return fail("E_CHECKPOINT", `git cat-file gave no content for ${item.id}.`);
      await each(item, content);
    }
    start = end;
  }
  return succeed(undefined);
}

async function blobSizes(
  git: ShadowGit,
  items: readonly { id: string }[],
): Promise<CheckpointOutcome<number[]>> {
  const checked = await git.text(["cat-file", "--batch-check=%(objecttype) %(objectsize)"], {
    input: items.map((item) => `${item.id}\n`).join(""),
  });
  if (!checked.ok) return checked;
  const lines = checked.value.split("\n").slice(0, items.length);
  const sizes: number[] = [];
  for (const [index, line] of lines.entries()) {
    // A missing object is answered `<id> missing`, whatever the format.
    const [type = "", size = ""] = line.endsWith(" missing") ? ["missing"] : line.split(" ");
    if (type !== "blob") return missingBlob(items[index]?.id ?? "", type);
    sizes.push(Number(size));
  }
  return succeed(sizes);
}

/** Records of `<id> <type> <size>\n<content>\n`. */
function parseBatch(output: Buffer): CheckpointOutcome<Buffer[]> {
  const objects: Buffer[] = [];
  let offset = 0;
  while (offset < output.length) {
    const headerEnd = output.indexOf(0x0a, offset);
    if (headerEnd < 0) break;
    const [id = "", type = "", size = ""] = output.subarray(offset, headerEnd).toString("utf8").split(" ");
    if (type !== "blob") return missingBlob(id, type);
    const start = headerEnd + 1;
    const end = start + Number(size);
    objects.push(output.subarray(start, end));
    offset = end + 1;
  }
  return succeed(objects);
}

/** A checkpoint whose file content is missing or of the wrong kind is broken: nothing is guessed. */
function missingBlob<T>(id: string, type: string): CheckpointOutcome<T> {
  return fail(
    "E_CHECKPOINT",
    `The checkpoint object ${id} is ${type === "missing" || type === "" ? "missing" : `a ${type}, not a file`}.`,
  );
}
