/**
 * Who is asking: Portcullis counts sign-in starts and callbacks per client address
 * (`rateLimit.perClient`), which Auth.js never did. `@portcullis/express` and
 * `@portcullis/sveltekit` hand core the address their framework knows; a next-auth or
 * `@auth/core` app must say where it comes from, and only its owner knows how many proxies stand
 * in front: trusting one too many lets a client choose its own address. So the step is listed,
 * never written.
 */
import ts from "typescript"
import { configsPassed, type Family } from "./legacy-cookies.js"
import type { ManualStep } from "./migrate-code.js"
import { positionOf, type CodeFile } from "./parse.js"

/** Why core cannot see the address itself, by the integration the config is passed to. */
const WHY: Partial<Record<Family, string>> = {
  nextjs: "Next.js gives a route handler no socket address",
  core: "Auth(request, config) is handed only the Request",
  hono: "@portcullis/hono learns it only from the getConnInfo you add to this config (from \"@hono/node-server/conninfo\", \"hono/bun\" or \"hono/deno\")",
}

/** The options that settle the question: an address source, or limits chosen by hand. */
const SETTLED = new Set(["clientAddress", "rateLimit", "getConnInfo"])

/**
 * Lists each config passed to next-auth or `@auth/core` that sets neither `clientAddress` nor
 * `rateLimit`: once deployed (off loopback), such an app logs `ClientAddressUnknown` and goes
 * without the per-client limits.
 */
export function clientAddressSteps(files: readonly CodeFile[]): ManualStep[] {
  const steps: ManualStep[] = []
  const seen = new Set<ts.ObjectLiteralExpression>()
  for (const { code, literal, family } of configsPassed(files)) {
    const why = WHY[family]
    if (why === undefined || seen.has(literal)) continue
    seen.add(literal)
    const settled = literal.properties.some((property) => property.name !== undefined && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && SETTLED.has(property.name.text))
    if (settled) continue
    steps.push({
      file: code.file,
      ...positionOf(code.source, literal),
      step:
        `Portcullis limits sign-in attempts per client address, and ${why}: set clientAddress in this config (behind proxies you control, ` +
        `forwardedFor({ proxies: 1 }) from "@portcullis/core/client-address", counting your proxies), or rateLimit: { perClient: false }; ` +
        `until then the deployed app logs ClientAddressUnknown and goes without those limits`,
    })
  }
  return steps
}
