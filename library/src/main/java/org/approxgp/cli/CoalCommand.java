package org.approxgp.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.approxgp.experiment.coal.CoalExperiment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code approxgp coal}: the QP paper's coal-mining experiment (Table 1, Mining row) — EP, QP and VB
 * with the square link over seeded event splits — printed beside the paper's numbers.
 */
@Command(name = "coal", mixinStandardHelpOptions = true,
    description = "Coal-mining Poisson experiment (QP paper Table 1, last row), beside the paper's numbers.")
final class CoalCommand implements Callable<Integer> {

  @Option(names = "--seeds", defaultValue = "200", description = "seeds 0..N-1 (default 200, the paper's)")
  int seeds;

  @Option(names = "--threads", description = "worker threads (default: all cores)")
  Integer threads;

  @Option(names = "--methods", split = ",", defaultValue = "ep,qp,vb", description = "subset of ep,qp,vb")
  List<String> methods;

  @Override
  public Integer call() {
    if (seeds < 1) {
      throw CliException.badInput("--seeds must be >= 1, got " + seeds);
    }
    for (String m : methods) {
      if (!CoalExperiment.METHODS.contains(m)) {
        throw CliException.badInput("--methods: unknown '" + m + "' (known: " + CoalExperiment.METHODS + ")");
      }
    }
    int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (t < 1) {
      throw CliException.badInput("--threads must be >= 1, got " + t);
    }
    CoalExperiment.main(new String[] {Integer.toString(seeds), Integer.toString(t), String.join(",", methods)});
    return 0;
  }
}
