package org.approxgp.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The results-store flags of the commands that run experiments ({@code run}, {@code coal}), declared once as a
 * picocli mixin so that both parse, document and default them alike.
 */
final class StoreOptions {

  @Option(
      names = "--repair",
      description = "move stored lines that are not rows (hand edits, a disk error) to"
          + " <hash>.jsonl.quarantine beside the store and compute those trials again (without it such a store is"
          + " refused); a damaged <hash>.jsonl.gz keeps its readable rows, its bytes go to"
          + " <hash>.jsonl.gz.quarantine")
  boolean repair;

  @Option(
      names = "--results",
      paramLabel = "DIR",
      description =
          "results root (default: approxgp.results / APPROXGP_RESULTS / results/ of the project)")
  Path results;
}
