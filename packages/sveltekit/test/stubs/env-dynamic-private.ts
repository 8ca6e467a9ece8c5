/** `$env/dynamic/private` for unit tests: the variables a test sets, as a platform without `process.env` hands them over. */
export const env: Record<string, string | undefined> = {}
