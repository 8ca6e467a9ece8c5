// @ts-check
import root from "../../eslint.config.js"

// The test app is a fixture written as a user's app; it resolves `@portcullis/nextjs` only through the
// link the test's setup makes, so type-aware rules could not see its types during `lint`.
export default [...root, { ignores: ["test/app/**"] }]
