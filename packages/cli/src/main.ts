import { runLatheCli } from "./latheCli.js";

await runLatheCli(process.argv.slice(2));
