// @ts-check
import root from "../../eslint.config.js"

// The test app's build output and Next.js's generated type file are not ours to lint.
export default [...root, { ignores: ["test/app/.next/**", "test/app/next-env.d.ts"] }]
