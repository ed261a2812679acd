import { realpath, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { z } from "zod";

/**
 * A project root as a client names it: absolute (the server's working directory means nothing to a
 * browser) and an existing directory; it reaches the services as its real path, the way the
 * session store keys projects.
 */
export const projectRootField = z
  .string()
  .min(1)
  .refine(isAbsolute, {
    message:
      "projectRoot must be an absolute path (the server's working directory means nothing to a browser)",
    abort: true,
  })
  .transform(async (path, context) => {
    const real = await realpath(path).catch(() => undefined);
    const isDirectory = real !== undefined && (await stat(real)).isDirectory();
    if (real !== undefined && isDirectory) return real;
    context.addIssue({ code: "custom", message: `projectRoot ${path} is not an existing directory` });
    return z.NEVER;
  });

export const projectQuery = z.strictObject({ projectRoot: projectRootField });

export const storedSessionsQuery = z.strictObject({ projectRoot: projectRootField.optional() });

/** `dir` is relative to the project ("" for its root). */
export const filesQuery = z.strictObject({ projectRoot: projectRootField, dir: z.string().default("") });

/** `q` is what follows the `@` being typed, possibly nothing yet. */
export const mentionsQuery = z.strictObject({
  projectRoot: projectRootField,
  q: z.string().max(1000).default(""),
});

export const noQuery = z.strictObject({});
