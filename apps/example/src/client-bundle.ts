/**
 * Bundles the browser script (`src/client.ts` with `@portcullis/core/client`) once at start, in memory.
 */
import { fileURLToPath } from "node:url"

import { build } from "esbuild"

const ENTRY = fileURLToPath(new URL("./client.ts", import.meta.url))

/**
 * The browser script as one ES module.
 *
 * @throws Error (esbuild's, with file and line) when the script does not compile.
 */
export async function bundleClientScript(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Readable on purpose: people open it to see what the client does.
    minify: false,
    legalComments: "none",
    logLevel: "silent",
  })
  const [output] = result.outputFiles
  if (output === undefined) throw new Error(`esbuild produced no output for ${ENTRY}`)
  return output.text
}
