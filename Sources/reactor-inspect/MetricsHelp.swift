/// The line every command's help ends with: where the numbers are defined.
enum MetricsHelp {
    static let pointer = """


        What the numbers mean (runs, reruns, first run, total, self, mean, p50, p99,
        max; which include first runs): docs/METRICS.md, the same in every command
        and every JSON output.
        """
}
