// One temporary folder per test run, which every temporary file of the run goes into: the tests' own
// (os.tmpdir()), cdktf's, and those of the processes they start (Terraform, synth, the planner), which inherit
// TMPDIR. The teardown removes it, so `npm test` leaves nothing behind in the machine's temporary folder.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

module.exports = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "aeks-test-run-"));
  process.env.AEKS_TEST_RUN_TMPDIR = root;
  process.env.TMPDIR = root;
};
