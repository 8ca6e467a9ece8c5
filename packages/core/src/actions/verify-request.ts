import { html, redirect } from "../http/context.js"
import type { RequestContext } from "../internal.js"

/** `GET /verify-request`: "check your email", after a sign-in link was sent (or the app's own page). */
export async function verifyRequest(context: RequestContext): Promise<Response> {
  const { pages, theme } = context.config
  if (pages.verifyRequest !== undefined) {
    const target = new URL(pages.verifyRequest, context.origin)
    for (const [key, value] of context.url.searchParams) if (key === "provider" || key === "type") target.searchParams.set(key, value)
    return redirect(context, target.href)
  }
  // Fetched on first use: only an app with an email provider shows this page.
  const { renderVerifyRequest } = await import("../pages/email.js")
  return html(context, renderVerifyRequest({ theme, homeUrl: context.origin }))
}
