/**
 * The app's configuration as core reads it, one object for the route, the middleware and the
 * server functions (core keeps what it resolved, and the in-memory limits, per object): the
 * default export of the app's `auth.config`, with the `basePath` the route is injected at (the
 * integration's option, which replaces one the config sets: the route is where requests arrive).
 *
 * @module config
 */
import type { AuthConfig } from "@portcullis/core"
import appConfig, { basePath } from "portcullis:config"

/** The configuration every part of the package hands core. */
export const config: AuthConfig = { ...appConfig, basePath }
