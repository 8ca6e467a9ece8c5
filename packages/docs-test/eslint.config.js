// @ts-check
import root from "../../eslint.config.js"

// create-next-app's files type-check only inside a Next.js app (its `LayoutProps` global comes
// from `next build`); the test checks them there, with Next's own type check.
export default [...root, { ignores: ["test/fixtures/**", "test/.apps/**"] }]
