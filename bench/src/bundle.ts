/** The size an app pays for `Auth` plus one provider: bundled, minified and gzipped with esbuild. */
import { gzipSync } from "node:zlib"
import { build } from "esbuild"

export async function bundleSize(core: string, twitter: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: {
      contents: `import { Auth } from "${core}"
import Twitter from "${twitter}"
export default (request) => Auth(request, { providers: [Twitter({ clientId: "id", clientSecret: "secret" })], secret: "s" })`,
      resolveDir: import.meta.dirname,
      loader: "js",
    },
    bundle: true,
    minify: true,
    format: "esm",
    // Node's built-ins stay external, as in any server bundle (the peer imports "crypto").
    platform: "node",
    target: "es2022",
    write: false,
    logLevel: "silent",
  })
  const code = result.outputFiles[0]?.contents ?? new Uint8Array()
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length }
}
