import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@lathe/protocol": src("protocol"),
      "@lathe/core": src("core"),
      "@lathe/testkit": src("testkit"),
      "@lathe/server": src("server"),
      "@lathe/cloud": src("cloud"),
    },
  },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "packages/*/test/**/*.test.tsx",
      "eval/**/*.test.ts",
    ],
    testTimeout: 30_000,
    pool: "forks",
  },
});
