import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/client.ts"],
  format: ["esm"],
  target: "es2022",
  // Built by the app's Vite with SvelteKit's virtual modules, on whatever platform the app's adapter targets.
  platform: "neutral",
  external: [/^\$app\//, /^\$env\//, "@sveltejs/kit", "@portcullis/core"],
  dts: true,
  clean: true,
  sourcemap: true,
})
