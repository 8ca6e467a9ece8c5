/**
 * Enrolling and removing second factors: `/mfa/setup` (the page), `/mfa/totp/setup`,
 * `/mfa/totp/confirm`, `/mfa/backup-codes` and `/mfa/remove`, each behind a recent authentication
 * (`session/recent.ts`), or under `mfa.required` a pending sign-in of the same user.
 *
 * Until the gate lands (issue 37 stage 2), `Auth()` refuses an `mfa` configuration at start, so
 * these routes answer as unknown ones do.
 */
import { notFound } from "../http/failures.js"
import type { RequestContext } from "../internal.js"

/** Answers a request to `{basePath}/mfa/{sub}` for enrolment and removal. */
export async function enrolRoute(context: RequestContext, _method: "GET" | "POST", _sub: string): Promise<Response> {
  return notFound(context.request, context.url, context.config)
}
