import { defineConfig } from "tsup"
import { workspaceFacts } from "./scripts/workspace-facts.js"

export default defineConfig({
  entry: ["src/index.ts", "src/cli.ts"],
  format: ["esm"],
  target: "es2022",
  platform: "node",
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  define: { __WORKSPACE__: JSON.stringify(workspaceFacts()) },
})
