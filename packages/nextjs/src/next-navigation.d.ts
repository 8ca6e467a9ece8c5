// Turbopack maps only the bare `next/navigation` to the copy the app router shares, and fails to
// build a route handler that imports `next/navigation.js`; TypeScript (NodeNext) resolves only the
// latter, as `next` has no exports map. The bare name, typed as the file.
declare module "next/navigation" {
  export * from "next/navigation.js"
}
