// A reader that stops early (`npm run plan -- ... | head`) closes the pipe, and the next write fails with
// EPIPE. Stopping is the reader's choice, not a failure: the command exits quietly and successfully (a
// non-zero code would make npm print an error of its own). Any other write error is still thrown.

function exitQuietlyOnClosedPipe() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error) => {
      if (error.code === "EPIPE") process.exit(0);
      throw error;
    });
  }
}

module.exports = { exitQuietlyOnClosedPipe };
