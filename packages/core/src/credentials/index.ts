/**
 * `@portcullis/core/credentials`: the credentials sign-in flow, which `Credentials()` from
 * `@portcullis/providers` carries under `FLOW`.
 *
 * @module credentials
 */
export { credentials } from "./flow.js"
