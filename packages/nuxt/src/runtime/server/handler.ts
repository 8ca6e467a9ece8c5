/**
 * The route under `{basePath}/**`: the event's request to core's `Auth()`, its answer back
 * through h3 (each `Set-Cookie` on its own line). `Auth()` never throws.
 *
 * @module
 */
import { defineEventHandler, sendWebResponse } from "#imports"
import { Auth } from "@portcullis/core"
import { authConfig, toRequest } from "./functions.js"

export default defineEventHandler(async (event) => sendWebResponse(event, await Auth(toRequest(event, true), authConfig())))
