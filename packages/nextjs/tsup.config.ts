import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/react.ts"],
  format: ["esm"],
  target: "es2022",
  // The edge runtime has no Node built-ins: build for no platform in particular.
  platform: "neutral",
  dts: true,
  clean: true,
  sourcemap: true,
})
