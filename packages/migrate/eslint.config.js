// @ts-check
import root from "../../eslint.config.js"

// The fixtures are Auth.js apps written as their users write them, resolved only once migrated in
// a copy: type-aware rules could not see their imports.
export default [...root, { ignores: ["test/fixtures/**", "test/.apps/**"] }]
