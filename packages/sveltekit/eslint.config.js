// @ts-check
import root from "../../eslint.config.js"

// The test app is a fixture written as a user's app, type-checked by SvelteKit's generated
// tsconfig; it resolves `@portcullis/sveltekit` only once the test's setup has installed it.
export default [...root, { ignores: ["test/app/**", "src/components/**"] }]
