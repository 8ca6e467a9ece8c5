import { text, type Handle } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { env } from "$env/dynamic/private"
import { handle as auth } from "./auth"

/** Origins that may post forms here: the providers answering with form_post (Apple's origin). */
const trustedOrigins = (env.CSRF_TRUSTED_ORIGINS ?? "").split(",").filter(Boolean)
const formTypes = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain", "application/x-sveltekit-formdata"]

/**
 * SvelteKit's CSRF check (svelte.config.js turns it off with `trustedOrigins: ["*"]`), for every
 * request but the provider's back-channel logout POSTs: they come from its server, with no Origin.
 */
const csrf: Handle = ({ event, resolve }) => {
  const { request, url } = event
  const origin = request.headers.get("origin")
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? ""
  const refused =
    ["POST", "PUT", "PATCH", "DELETE"].includes(request.method) &&
    formTypes.includes(type) &&
    origin !== url.origin &&
    !(origin !== null && trustedOrigins.includes(origin)) &&
    !url.pathname.startsWith("/auth/backchannel-logout/")
  return refused ? text(`Cross-site ${request.method} form submissions are forbidden`, { status: 403 }) : resolve(event)
}

export const handle = sequence(csrf, auth)
