// Prints the run's totals as one plain closing line ("N passed, N failed, N skipped"), the form CI
// systems read when they do not parse Jest's own summary. Written at exit: Jest prints its own summary
// after every configured reporter's onRunComplete.

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`;
    process.once("exit", () => process.stderr.write(line));
  }
}

module.exports = SummaryReporter;
