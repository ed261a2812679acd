import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The UI reads the protocol's types and zod schemas from source: one definition for server and client.
export default defineConfig({
  plugins: [react()],
  base: "./",
  resolve: {
    alias: { "@lathe/protocol": fileURLToPath(new URL("../protocol/src/index.ts", import.meta.url)) },
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
});
