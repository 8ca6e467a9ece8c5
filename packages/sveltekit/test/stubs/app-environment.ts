/** `$app/environment` for unit tests, outside a SvelteKit build: a production server. */
export const dev = false
export const building = false
export const browser = false
export const version = "test"
