/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Type checking is done once by `tsc --noEmit` in `npm test`; ts-jest only transpiles, which keeps
  // each test file from re-checking the provider bindings.
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  testTimeout: 120000,
};
