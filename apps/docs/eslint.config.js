// @ts-check
import root from "../../eslint.config.js"

// The built site and VitePress's cache are output, not source.
export default [...root, { ignores: ["dist/**", "site/.vitepress/cache/**"] }]
