/**
 * The route under `{basePath}/**`: the event's request to core's `Auth()`, its answer back
 * through h3 (each `Set-Cookie` on its own line); `400` for a `Host` that is no plain
 * `host[:port]`. `Auth()` never throws.
 *
 * @module
 */
import { defineEventHandler, sendWebResponse } from "#imports"
import { Auth } from "@portcullis/core"
import { authConfig, toRequest } from "./functions.js"

export default defineEventHandler(async (event) => {
  const request = toRequest(event, true)
  // Answered here rather than thrown: Nitro's error handler reads the request's URL again, and fails on this Host.
  return sendWebResponse(event, request === undefined ? new Response(null, { status: 400 }) : await Auth(request, authConfig()))
})
