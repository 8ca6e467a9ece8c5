/**
 * Hands the app's server-side render the session reader: the Vue app is bundled apart from Nitro,
 * so it reaches `auth(event)` through the event rather than importing core a second time (with a
 * second copy of the app's adapter).
 *
 * @module
 */
import { defineNitroPlugin } from "#imports"
import { auth } from "./functions.js"

export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook("request", (event) => {
    event.context.portcullis = { auth: () => auth(event) }
  })
})
