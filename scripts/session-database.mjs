// Writes packages/core/dist/store/emptySessions.db: the session database with every migration
// applied and no rows, which a new `$LATHE_HOME` copies instead of migrating (store/database.ts).
// Made by the built engine's own migrations, so it never disagrees with them.
import { fileURLToPath } from "node:url";

const dist = new URL("../packages/core/dist/", import.meta.url);
const core = await import(new URL("index.js", dist).href);
const written = core.writeEmptyDatabase(fileURLToPath(new URL("store/emptySessions.db", dist)));
if (!written.ok) {
  console.error(`session-database: ${written.error.message}`);
  process.exit(1);
}
