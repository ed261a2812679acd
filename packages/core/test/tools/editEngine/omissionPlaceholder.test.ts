import { describe, expect, it } from "vitest";
import {
  introducedPlaceholder,
  isOmissionPlaceholder,
} from "../../../src/tools/editEngine/omissionPlaceholder.js";

describe("omission placeholders", () => {
  it.each([
    "// ... rest of the code ...",
    "    // ... rest of the code ...",
    "# (rest of methods unchanged)",
    "/* existing code */",
    "// ...existing code...",
    "// ... existing code ...",
    "<!-- ... -->",
    "<!-- rest of the page unchanged -->",
    "{/* ... */}",
    "// ...",
    "# ...",
    "// …",
    "-- ...",
    "// rest of file unchanged",
    "# rest of the file remains the same",
    "// Rest of the implementation stays the same",
    "// ... other methods unchanged ...",
    "// remaining tests unchanged",
    "/* ... previous code ... */",
    "// methods omitted for brevity",
    "# imports remain the same",
    "// keep existing code",
    "// unchanged",
    "// ... same as before ...",
    " * ... rest of the class ...",
    "// [existing code here]",
  ])("flags %j", (line) => {
    expect(isOmissionPlaceholder(line)).toBe(true);
  });

  it.each([
    "const merged = { ...defaults, ...options };",
    "call(...args);",
    "...",
    "    ...",
    "def stub(self) -> None: ...",
    "x = arr[..., 0]",
    "// TODO: rest of handling",
    "// rest of handling",
    "// handles the rest of the request",
    "// the rest of the code is in parser.ts",
    "// existing code paths are handled below",
    "// other methods",
    "// Remaining tests cover edge cases",
    "/** Returns the rest of the list. */",
    "// ---------------------------------",
    "// ........................................",
    "# Loop over the remaining items",
    "*ptr = 0;",
    "--count;",
    "#include <stdio.h>",
    "#!/usr/bin/env node",
    "print('... rest of the code ...')",
    "pass  # ...",
    "",
  ])("leaves %j alone", (line) => {
    expect(isOmissionPlaceholder(line)).toBe(false);
  });

  it("names a placeholder only when the old text did not have it", () => {
    expect(introducedPlaceholder("a();\nb();\n", "a();\n// ... rest of the code ...\n")).toBe(
      "// ... rest of the code ...",
    );
    expect(introducedPlaceholder("a();\n  // ...\nb();", "A();\n// ...\nb();")).toBeUndefined();
    expect(introducedPlaceholder("a();", "call(...args);")).toBeUndefined();
  });
});
