// Runs a TypeScript command-line entry (a function taking argv and io, returning an exit code) from the
// bundle cache. User mistakes are the entry's to print (it returns 2); anything it throws is a bug and keeps
// its stack.

// The pinned AWS SDK declares Node >= 20; its start-up notice about releases after January 2027 needing
// Node 22 would otherwise be printed before every --live answer, error lines included.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const { requireTypeScript } = require("./bundle-cache");
const { exitQuietlyOnClosedPipe } = require("./quiet-pipe");

/** Loads `entry` (asynchronous: esbuild bundles on a cache miss), calls its `name` export, sets the exit code. */
function runCli(entry, name, io) {
  exitQuietlyOnClosedPipe();
  requireTypeScript(entry)
    .then((module) => module[name](process.argv.slice(2), io))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
}

module.exports = { runCli };
