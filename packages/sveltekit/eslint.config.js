// @ts-check
import root from "../../eslint.config.js"

// The test app is a fixture written as a user's app, type-checked by SvelteKit's generated
// tsconfig; it resolves `@portcullis/sveltekit` only through the link the test's setup makes.
export default [...root, { ignores: ["test/app/**", "src/components/**"] }]
