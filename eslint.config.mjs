// ESLint flat config: typescript-eslint's recommended rules plus the project's layering basics.
// Import direction between folders (core ↛ vscode/cli/webview, no cycles) is checked by scripts/check-imports.mjs.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "dist-test/**",
      "node_modules/**",
      "test/agents/**",
      "test-results/**",
      ".acp-threads/**",
      "screenshots/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      // Optional native modules are loaded lazily so a platform without them still starts.
      "@typescript-eslint/no-require-imports": ["error", { allow: ["^node-pty$"] }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
  {
    // Type-aware rules on the product code: a promise nobody awaits or handles is a rejection nobody sees.
    files: ["src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "vscode", message: "src/core never imports vscode." }] }],
    },
  },
  {
    // #35: the extension host's thread never waits on disk. The window uses node:fs/promises, vscode.workspace.fs or
    // an engine request; a synchronous call that must stay says why beside an eslint-disable comment.
    files: ["src/vscode/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[source.value=/^(node:)?(fs|child_process)$/] > ImportSpecifier[imported.name=/Sync$/]",
          message: "src/vscode runs on the extension host's thread: use node:fs/promises (no synchronous file call).",
        },
        {
          selector: "MemberExpression[property.name=/^[a-z][A-Za-z]*Sync$/][object.name=/^(fs|fsSync|nodeFs)$/]",
          message: "src/vscode runs on the extension host's thread: use node:fs/promises (no synchronous file call).",
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      // Tests poke at parsed JSON and re-require built bundles on purpose.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    files: ["scripts/**/*.mjs", "test/**/*.mjs", "bench/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        fetch: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
  },
);
