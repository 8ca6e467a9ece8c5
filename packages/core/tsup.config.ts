import { defineConfig } from "tsup"
// @ts-expect-error: a plain ES module script, without types of its own
import { ENTRIES } from "./scripts/bundle.mjs"

// Types only: the JavaScript comes from scripts/bundle.mjs (Rollup), which groups what `Auth`
// loads at start into one chunk. Both read the same list of entries.
export default defineConfig({
  entry: Object.values(ENTRIES as Record<string, string>),
  format: ["esm"],
  target: "es2022",
  platform: "neutral",
  dts: { only: true },
  clean: true,
})
