// Every sign-in ends in `src/sign-in/sign-in.ts` (CONTRIBUTING, "Where the next capability
// goes"): a step every sign-in must take (a second-factor gate) is added there once, so no flow
// may start a session by itself. This checks the source: a flow, route or server function that
// calls `startSession` directly would start a session past such a gate.
import { readdirSync, readFileSync } from "node:fs"
import { sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const src = fileURLToPath(new URL("../../src/", import.meta.url))

/** The modules that may start a session: where it is defined, and the one sign-in ending. */
const MAY_START = new Set(["session/start.ts", "session/index.ts", "sign-in/sign-in.ts"])

function sources(): string[] {
  return readdirSync(src, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith(".ts"))
}

/** The modules (outside {@link MAY_START}) whose code names `startSession`. */
function startersOutsideTheEnding(read: (path: string) => string): string[] {
  return sources()
    .filter((path) => !MAY_START.has(path.replaceAll("\\", "/")))
    .filter((path) => /\bstartSession\b/.test(read(path)))
}

describe("the one sign-in ending", () => {
  it("is the only place outside session/ that starts a session", () => {
    expect(startersOutsideTheEnding((path) => readFileSync(src + path, "utf8"))).toEqual([])
  })

  it("is passed only through the second-factor gate: completeAfterGate, which starts a session past it, is called by the pending sign-in alone (ASVS V6.3.4)", () => {
    const callers = sources()
      .filter((path) => !["sign-in/sign-in.ts", "factors/pending.ts"].includes(path.replaceAll("\\", "/")))
      .filter((path) => /\bcompleteAfterGate\b/.test(readFileSync(src + path, "utf8")))
    expect(callers).toEqual([])
  })

  it("a re-authentication never starts a session: the reauth room names neither startSession nor a sign-in ending", () => {
    // The code, without its comments (which say what the room never does).
    const read = (path: string) => readFileSync(src + path, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
    const room = sources().filter((path) => path.replaceAll("\\", "/").startsWith("reauth/"))
    expect(room).toContain(`reauth${sep}ending.ts`)
    expect(room.filter((path) => /\b(startSession|finishSignIn|signInAccount)\b/.test(read(path)))).toEqual([])
  })

  it("would name a flow that started a session by itself", () => {
    const planted = "credentials/callback.ts"
    const read = (path: string) => readFileSync(src + path, "utf8") + (path === planted ? "\nawait startSession(context, signedIn)\n" : "")
    expect(startersOutsideTheEnding(read)).toEqual([planted])
  })
})
