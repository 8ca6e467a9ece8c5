/** `pnpm --filter docs generate`: writes the reference pages (run by `build` and `dev` first). */
import { writePages } from "../src/generate.js"

try {
  await writePages()
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
