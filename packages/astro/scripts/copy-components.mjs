/**
 * Completes dist/ after tsup: the Astro components as source, with their entry (an app's Astro
 * compiler builds them, as Astro's component packages ship them).
 */
import { cpSync } from "node:fs"
import { URL } from "node:url"

cpSync(new URL("../src/components/", import.meta.url), new URL("../dist/components/", import.meta.url), { recursive: true })
