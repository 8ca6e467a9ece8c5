import { defineConfig } from "tsup"

const common = { format: "esm", target: "es2022", dts: true, sourcemap: true } as const

export default defineConfig([
  { ...common, entry: ["src/module.ts"], platform: "node", clean: true },
  // Nuxt and Nitro build these into the app: one file each, their `#` imports left to them.
  { ...common, entry: ["src/runtime/**/*.ts", "!src/runtime/**/*.d.ts"], outDir: "dist/runtime", bundle: false, platform: "neutral", external: [/^#/] },
])
