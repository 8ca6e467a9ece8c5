// What the runtime files import from `#imports`: Nitro's auto-imports on the server (h3's
// functions), Nuxt's in the app. Nuxt and Nitro resolve the module when they build the app.
declare module "#imports" {
  export { appendResponseHeader, createError, defineEventHandler, getRequestIP, getRequestURL, getRequestWebStream, sendWebResponse } from "h3"
  export { defineNitroPlugin } from "nitropack/runtime"
  export { defineNuxtPlugin, defineNuxtRouteMiddleware, navigateTo, useNuxtApp, useRequestEvent, useRuntimeConfig, useState } from "nuxt/app"
  export { computed } from "vue"
}

// The app's `AuthConfig`: `server/auth.config.ts` (the module's `config` option), aliased at build time.
declare module "#portcullis/config" {
  const config: import("@portcullis/core").AuthConfig
  export default config
}

// The module's options Nitro needs, written by the module at build time.
declare module "#portcullis/options" {
  export const basePath: string
}
