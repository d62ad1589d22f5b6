import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", ".data/**", ".tools/**", "e2e/artifacts/**", "e2e/test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false, attributes: false } }],
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Configuration is parsed once in shared/src/config.ts; nothing else reads the environment.
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through loadConfig() in shared/src/config.ts." },
      ],
    },
  },
  {
    files: ["shared/src/config.ts", "shared/src/devtools/**", "shared/src/testing/**", "e2e/**", "bench/**", "**/*.test.ts", "*.config.ts", "*/vite.config.ts"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // Adapters are parse → one domain call → answer: they never reach the database's
    // collections themselves (docs/ARCHITECTURE.md#packages). The rules live in shared/src/domain.
    files: ["server/src/**/*.ts", "mcp-sidecar/src/**/*.ts"],
    ignores: ["**/*.test.ts", "**/testing.ts", "**/main.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "mongodb", message: "Adapters do not talk to the database; call a domain function." },
            { name: "@atelier/shared/db", message: "Adapters do not touch collections; call a domain function." },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='c'][object.property.name='database']",
          message: "Adapters do not touch collections; call a domain function (shared/src/domain).",
        },
      ],
    },
  },
  {
    // One parameter convention (docs/ARCHITECTURE.md#packages): a domain function takes `deps` first, never
    // the bare database, so a function that later needs the cache or the mailer changes no caller.
    files: ["shared/src/domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ExportNamedDeclaration > FunctionDeclaration > Identifier.params:first-child[name=/^(database|db)$/]",
          message: 'Domain functions take deps first (Pick<Deps, "database">), not the database.',
        },
      ],
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
);
