import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const zodThroughLib = {
  name: "zod",
  message: "Import z from ~/lib/zod: it configures zod for the Content-Security-Policy.",
  allowTypeImports: true,
};

/**
 * @param {string} files
 * @param {string} message
 * @returns {import("typescript-eslint").ConfigWithExtends}
 */
function noFeatureImports(files, message) {
  return {
    files: [files],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [zodThroughLib], patterns: [{ regex: "^(~/|(\\.\\./)+)features(/|$)", message }] },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "data/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat["recommended-latest"],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-restricted-imports": ["error", { paths: [zodThroughLib] }],
      "no-restricted-properties": [
        "error",
        {
          object: "request",
          property: "formData",
          message: "Use readFormData(request) from ~/lib/form-data.server: it answers a malformed body with a 4xx.",
        },
      ],
    },
  },
  // components/ holds what any feature may use, so it may not depend on one (ADR 014); the platform
  // (mail, observability, seo, health) is plumbing every feature may use: it knows none either.
  noFeatureImports(
    "app/components/**",
    "app/components may not import a feature: move the piece into the feature, or pass it in.",
  ),
  noFeatureImports(
    "app/platform/**",
    "app/platform may not import a feature: pass what it needs in, or move it to app/lib.",
  ),
  { files: ["app/lib/form-data.server.ts"], rules: { "no-restricted-properties": "off" } },
  { files: ["app/lib/zod.ts"], rules: { "@typescript-eslint/no-restricted-imports": "off" } },
);
