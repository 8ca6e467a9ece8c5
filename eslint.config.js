// @ts-check
import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  // Core's tests import sibling packages by name (vitest.config.ts and tsconfig.json map the names to
  // their sources): a relative path that climbs out of packages/core is another package's files.
  ...[1, 2, 3].map((depth) => ({
    files: [`packages/core/test/${"*/".repeat(depth - 1)}*.ts`],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [{
          regex: `^(?:\\.\\./){${String(depth + 1)}}`,
          message: "Import a sibling package by its name (@portcullis/adapter-memory, @portcullis/providers/<path>), not by a relative path into its folder.",
        }],
      }],
    },
  })),
)
