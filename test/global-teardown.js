// Removes the run's temporary folder (global-setup.js).
const fs = require("node:fs");

module.exports = () => {
  const root = process.env.AEKS_TEST_RUN_TMPDIR;
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
};
