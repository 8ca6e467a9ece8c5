/**
 * Completes dist/ after tsup (whose type build clears it): the Svelte components as source (an
 * app's Svelte compiler builds them, as `svelte-package` ships them), and the `providers/<id>`
 * import paths @auth/sveltekit has (the providers package's build tooling writes them).
 */
import { cpSync } from "node:fs"
import { URL, fileURLToPath } from "node:url"
import { writeProviderReExports } from "../../providers/scripts/re-export-entries.mjs"

cpSync(new URL("../src/components/", import.meta.url), new URL("../dist/components/", import.meta.url), { recursive: true })
writeProviderReExports(fileURLToPath(new URL("..", import.meta.url)))
