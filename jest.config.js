const os = require("node:os");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Type checking is done once by `tsc --noEmit` in `npm test`; ts-jest only transpiles, which keeps
  // each test file from re-checking the provider bindings.
  transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
  setupFilesAfterEnv: ["<rootDir>/test/setup.ts"],
  // Not the machine's temporary folder: a run leaves nothing there (global-setup.js).
  cacheDirectory: "<rootDir>/node_modules/.cache/jest",
  globalSetup: "<rootDir>/test/global-setup.js",
  globalTeardown: "<rootDir>/test/global-teardown.js",
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  // Jest's default leaves a core to its own process, which only waits: on two cores that is one worker.
  maxWorkers: Math.max(2, os.availableParallelism()),
  testTimeout: 120000,
};
