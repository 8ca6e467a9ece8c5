/**
 * The second factor's routes under `{basePath}/mfa`: the challenge page (`/mfa`) and the code that
 * completes a pending sign-in (`/mfa/verify`) here; enrolment and removal (`/mfa/setup`,
 * `/mfa/totp/setup`, `/mfa/totp/confirm`, `/mfa/backup-codes`, `/mfa/remove`) in `enrol-routes.ts`.
 * Loaded by `import()` from `Auth()`'s route table: an app without `mfa` loads none of it.
 *
 * Until the gate lands (issue 37 stage 2), `Auth()` refuses an `mfa` configuration at start, so
 * these routes answer as unknown ones do.
 */
import { notFound } from "../http/failures.js"
import type { RequestContext } from "../internal.js"

/** Answers a request to `{basePath}/mfa/{sub}`. */
export async function mfaRoute(context: RequestContext, method: "GET" | "POST", sub: string): Promise<Response> {
  if (sub !== "" && sub !== "verify") return (await import("./enrol-routes.js")).enrolRoute(context, method, sub)
  return notFound(context.request, context.url, context.config)
}
