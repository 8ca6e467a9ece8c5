/**
 * The route the integration injects at `{basePath}/[...auth]`: every auth route, `GET` and
 * `POST`, answered by core's `Auth()` with the client's address for its per-client limits.
 *
 * @module route
 */
import { Auth } from "@portcullis/core"
import type { APIRoute } from "astro"
import { config } from "./config.js"
import { addressed } from "./server.js"

/** Rendered on demand: each request is a visitor's. */
export const prerender = false

/** Every method: core answers the ones a route does not take. */
export const ALL: APIRoute = (context) => Auth(addressed(context), config)
