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
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
  // Jest's default leaves a core to its own process, which only waits: on two cores that is one worker.
  maxWorkers: Math.max(2, os.availableParallelism()),
  testTimeout: 120000,
};
