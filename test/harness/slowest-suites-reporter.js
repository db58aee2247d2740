/**
 * Prints the slowest suites at the end of a run (ten by default; SLOWEST_SUITES=n for another count, 0 for none),
 * so that the run that grows slower says where its time went.
 */
class SlowestSuitesReporter {
  constructor(globalConfig, options = {}) {
    this.count = Number(process.env.SLOWEST_SUITES ?? options.count ?? 10);
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    if (!(this.count > 0)) return;
    const suites = results.testResults
      .map((r) => ({ file: r.testFilePath.replace(`${this.rootDir}/`, ''), seconds: (r.perfStats.end - r.perfStats.start) / 1000, failed: r.numFailingTests > 0 || Boolean(r.testExecError) }))
      .filter((s) => Number.isFinite(s.seconds))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, this.count);
    if (suites.length === 0) return;
    const total = results.testResults.reduce((sum, r) => sum + Math.max(0, r.perfStats.end - r.perfStats.start), 0) / 1000;
    const lines = suites.map((s) => `${s.seconds.toFixed(1).padStart(7)} s  ${s.file}${s.failed ? '  (failed)' : ''}`);
    process.stderr.write(`\nSlowest ${suites.length} suites (of ${results.testResults.length}, ${total.toFixed(0)} s of suite time in all):\n${lines.join('\n')}\n`);
  }
}

module.exports = SlowestSuitesReporter;
