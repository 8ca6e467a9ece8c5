// @ts-check
import root from "../../eslint.config.js"

// The app's scripts run on every runtime of the matrix: the web platform's globals, and each
// runtime's own where its entry uses them.
const web = Object.fromEntries(["URL", "Request", "Response", "fetch", "console", "performance", "setTimeout", "clearTimeout", "navigator"].map((name) => [name, "readonly"]))

export default [
  ...root,
  { files: ["app/**/*.mjs"], languageOptions: { globals: { ...web, process: "readonly", Bun: "readonly", Deno: "readonly" } } },
]
