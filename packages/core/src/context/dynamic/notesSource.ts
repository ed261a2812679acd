import { largestFitting, tagged } from "./contextText.js";
import type { SourceContext } from "./sourceContext.js";

/**
 * Why things the model might expect are missing (a sensitive open file, a failed search), so it
 * does not take the silence for absence. Last, with what is left: the content comes first.
 */
export function addNotes(context: SourceContext): void {
  const { notes, assembly } = context;
  if (notes.length === 0) return;
  const render = (count: number) =>
    tagged(
      "context_notes",
      {},
      notes
        .slice(0, count)
        .map((note) => `- ${note}`)
        .join("\n"),
    );
  const count = largestFitting(notes.length, (n) => assembly.fits(render(n)));
  if (count <= 0) return;
  assembly.add({ source: "notes", text: render(count), items: count, files: [] });
}
