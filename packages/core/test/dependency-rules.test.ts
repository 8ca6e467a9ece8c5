/**
 * Core's import rules (.dependency-cruiser.mjs, run by `pnpm lint`) catch what they are for, on a
 * fixture tree whose every offending import is type-only: a circle closed by `import type`, an
 * action importing a flow folder, a flow importing a sibling flow, a room importing a room above
 * it (or its layer sibling), a stage of config/ importing a later stage, a room below the routes importing a route or a server function, src
 * importing a file outside it, a relative import of another package's src, an import that resolves
 * to nothing. The same config then checks the real tree in lint, where any violation fails.
 */
import { fileURLToPath } from "node:url"
import { cruise, type ICruiseOptions, type ICruiseResult } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config"
import { describe, expect, it } from "vitest"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
// The fixture's `core` stands for packages/core, `other-package` for a sibling workspace package.
const fixtureDir = fileURLToPath(new URL("fixtures/dependency-rules/core", import.meta.url))
const tsConfigFile = `${packageDir}tsconfig.json`

/** Cruises the fixture tree with core's rules; `override` changes one option to show it matters. */
async function violations(override: Partial<ICruiseOptions> = {}): Promise<string[]> {
  const options = await extractDepcruiseOptions(`${packageDir}.dependency-cruiser.mjs`)
  const { output } = await cruise(
    ["src", "test"],
    { ...options, ...override, baseDir: fixtureDir, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  )
  const result = output as ICruiseResult
  return result.summary.violations
    .map((violation) => {
      const cycle = violation.cycle?.map((step) => `${step.name} (${step.dependencyTypes.join(", ")})`).join(" -> ")
      return `${violation.rule.name}: ${violation.from} -> ${violation.to}${cycle === undefined ? "" : `, circle ${cycle}`}`
    })
    .sort()
}

describe("core's dependency rules", () => {
  it("fail each kind of forbidden import, even when it is a type import only", async () => {
    expect(await violations()).toEqual([
      "action-imports-flow: src/actions/signin.ts -> src/oauth/state.ts",
      // config/'s stages: normalise may use read, never check, which runs after it.
      "config-stage-imports-later-stage: src/config/normalise.ts -> src/config/check.ts",
      "flow-imports-other-flow: src/oauth1/index.ts -> src/oauth/state.ts",
      // webauthn -> email is declared in ALLOWED_FLOW_TO_FLOW: only its import of the OAuth folder is reported.
      "flow-imports-other-flow: src/webauthn/signup.ts -> src/oauth/state.ts",
      "no-circular: src/model-a.ts -> src/model-b.ts, circle src/model-b.ts (local, type-only, import) -> src/model-a.ts (local, type-only, import)",
      "not-to-unresolvable: src/unresolved.ts -> ./missing.js",
      // Each room's rule; the imports LAYERS declares under `also` (http -> pages, config -> oauth,
      // sign-in -> session) and those into lower rooms are not reported.
      "room-imports-above-it: src/config/read.ts -> src/sign-in/finish.ts",
      "room-imports-above-it: src/crypto/seal.ts -> src/errors/codes.ts",
      "room-imports-above-it: src/errors/codes.ts -> src/crypto/key.ts",
      "room-imports-above-it: src/http/request.ts -> src/limits/counter.ts",
      "room-imports-above-it: src/limits/gate.ts -> src/actions/signin.ts",
      "room-imports-above-it: src/outbound/store.ts -> src/config/read.ts",
      "room-imports-above-it: src/sign-in/finish.ts -> src/server/call.ts",
      "route-imported-below-it: src/limits/gate.ts -> src/actions/signin.ts",
      "route-imported-below-it: src/sign-in/finish.ts -> src/server/call.ts",
      "src-imports-outside-src: src/reach-out.ts -> ../other-package/src/index.ts",
      "src-imports-outside-src: src/reach-out.ts -> outside/helper.ts",
      "workspace-src-by-relative-path: src/reach-out.ts -> ../other-package/src/index.ts",
      "workspace-src-by-relative-path: test/reach-in.ts -> ../other-package/src/index.ts",
    ])
  })

  it("see those imports only because type imports are counted (tsPreCompilationDeps)", async () => {
    // Without it, TypeScript erases `import type` before the imports are read and nothing is seen:
    // the setting is what makes the rules above hold for types.
    expect(await violations({ tsPreCompilationDeps: false })).toEqual([])
  })
})
