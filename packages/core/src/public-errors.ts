/**
 * Every failure `Auth()` can meet, as values with a stable `code`.
 *
 * The logger receives the error with its `cause`; the browser only ever sees the `code`
 * (in an error or sign-in page URL) and a fixed human sentence for it (`errorMessages`).
 *
 * Only re-exports, apart from core's own modules: a bundler keeps just what an app uses, so the
 * sentences (which core loads when an answer shows one) stay out of an app that imports an
 * error class.
 *
 * @module errors
 */
export * from "./errors/errors.js"
export * from "./errors/flow-errors.js"
export { errorMessages, isAuthErrorCode, signInPageMessages } from "./errors/error-messages.js"
