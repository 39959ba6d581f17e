package org.approxgp.report;

import java.util.Arrays;
import java.util.Map;
import org.approxgp.inference.Diagnostics;
import org.approxgp.inference.Posterior;
import org.approxgp.model.FittedGp;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** Tables (and so HTML) for inference results: what a notebook shows for a fit or a posterior. */
public final class ModelViews {
  private ModelViews() {}

  /** One row per fit, keyed by a label (e.g. the method name): evidence, hyperparameters, diagnostics. */
  public static Table compare(Map<String, FittedGp> fits) {
    StringColumn label = StringColumn.create("fit");
    StringColumn method = StringColumn.create("method");
    StringColumn kernel = StringColumn.create("kernel");
    DoubleColumn ev = DoubleColumn.create("log evidence");
    DoubleColumn sv = DoubleColumn.create("signal variance");
    StringColumn ls = StringColumn.create("length-scale(s)");
    IntColumn it = IntColumn.create("optimiser iterations");
    BooleanColumn conv = BooleanColumn.create("converged");
    StringColumn status = StringColumn.create("optimiser status");
    StringColumn diag = StringColumn.create("last inference");
    DoubleColumn sec = DoubleColumn.create("seconds");
    fits.forEach((name, f) -> {
      label.append(name);
      method.append(f.method());
      kernel.append(f.kernel().name());
      ev.append(f.logEvidence());
      double[] theta = f.kernel().logHyperparameters();
      sv.append(Math.exp(theta[theta.length - 1]));
      double[] l = Arrays.stream(theta, 0, theta.length - 1).map(Math::exp).toArray();
      ls.append(
          l.length <= 3
              ? ValueViews.text(l)
              : l.length + " values, geometric mean "
                  + ValueViews.number(Math.exp(
                      Arrays.stream(theta, 0, theta.length - 1).average().orElse(0))));
      it.append(f.iterations());
      conv.append(f.converged());
      status.append(f.optimized() ? f.optimizerStatus() : "fixed θ");
      diag.append(describe(f.posterior().diagnostics())
          + (f.activeBounds().isEmpty() ? "" : "; at bound: " + f.activeBounds()));
      sec.append(f.seconds());
    });
    // shown by the project's one rounding rule; the values themselves are kept
    return Tables.rounded(
        Table.create("fits", label, method, kernel, ev, sv, ls, it, conv, status, diag, sec));
  }

  /** A one-row table for a single fit. */
  public static Table of(FittedGp fit) {
    return compare(Map.of(fit.method(), fit));
  }

  /** A one-row table for a posterior. */
  public static Table of(Posterior p) {
    Diagnostics d = p.diagnostics();
    return Tables.rounded(Table.create(
        "posterior",
        StringColumn.create("likelihood", new String[] {p.problem().likelihood().name()}),
        StringColumn.create("kernel", new String[] {p.problem().kernel().name()}),
        IntColumn.create("n", new int[] {p.problem().size()}),
        DoubleColumn.create("log evidence", new double[] {p.logEvidence()}),
        StringColumn.create("diagnostics", new String[] {describe(d)})));
  }

  private static String describe(Diagnostics d) {
    return d.toString();
  }
}
