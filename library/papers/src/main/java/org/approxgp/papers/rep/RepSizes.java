package org.approxgp.papers.rep;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What a run of the REP experiments changes from the paper's sizes (Qi &amp; Guo §6.2–6.3), as a table: per
 * setting, what the paper states, the {@code Config.paper} protocol that follows it (the paper names no
 * cross-validation grid or folds, so those are ours), and the run's config. The notebooks print it in their
 * "what differs from the paper" cell, so a reduced mode says so beside the paper's numbers.
 */
public final class RepSizes {

  private static final String NOT_STATED = "not stated";

  private RepSizes() {}

  /** Figures 2–4 (§6.2): the synthetic data's sizes and grids, paper beside {@code run}. */
  public static Table synthetic(RepSynthetic.Config run) {
    RepSynthetic.Config p = RepSynthetic.Config.paper(run.negativeSites());
    Table t = table("Figures 2–4: sizes, paper beside this run");
    add(t, "flip rates (%)", "10, 20", join(p.flipPercents()), join(run.flipPercents()));
    add(t, "data sets per flip rate", 10, p.repetitions(), run.repetitions());
    add(t, "training points per class", 200, p.trainPerClass(), run.trainPerClass());
    add(t, "test points per class", 19_800, p.testPerClass(), run.testPerClass());
    grids(
        t,
        p.lengthscales(),
        run.lengthscales(),
        "ℓ grid",
        "CV on the training data, grid " + NOT_STATED);
    grids(
        t,
        p.powers(),
        run.powers(),
        "Power EP u grid",
        "tuned, grid " + NOT_STATED + " (Fig. 2: 0.8)");
    grids(
        t,
        p.penalties(),
        run.penalties(),
        "REP c grid",
        "tuned, grid " + NOT_STATED + " (Fig. 2: 10)");
    add(t, "CV folds", NOT_STATED, p.cvFolds(), run.cvFolds());
    add(t, "sweep cap", NOT_STATED, p.maxSweeps(), run.maxSweeps());
    return t;
  }

  /** Figures 5–6 (§6.3): splits per data set and the grids, paper beside {@code run}. */
  public static Table uci(RepUci.Config run) {
    RepUci.Config p = RepUci.Config.paper(run.negativeSites());
    Table t = table("Figures 5–6: sizes, paper beside this run");
    for (String d :
        RepUci.PROTOCOLS.keySet().stream().sorted(RepSizes::paperOrder).toList()) {
      int paper = RepUci.PROTOCOLS.get(d).splits();
      String ours =
          run.datasets().contains(d) ? String.valueOf(Math.min(run.splits(), paper)) : "not run";
      add(
          t,
          d + (d.equals(RepUci.SPAM) ? ": repetitions per flip rate" : ": splits"),
          paper,
          paper,
          ours);
    }
    add(
        t,
        "Spam extra flip rates (%)",
        "several, " + NOT_STATED,
        join(p.spamFlipPercents()),
        run.datasets().contains(RepUci.SPAM) ? join(run.spamFlipPercents()) : "not run");
    grids(t, p.lengthscales(), run.lengthscales(), "ℓ grid (× √d)", NOT_STATED);
    grids(t, p.powers(), run.powers(), "Power EP u grid", NOT_STATED);
    grids(t, p.penalties(), run.penalties(), "REP c grid", NOT_STATED);
    add(t, "CV folds", NOT_STATED, p.cvFolds(), run.cvFolds());
    add(t, "sweep cap", NOT_STATED, p.maxSweeps(), run.maxSweeps());
    return t;
  }

  private static int paperOrder(String a, String b) {
    List<String> order = List.of("heart", "pima", "diabetes", "haberman", RepUci.SPAM);
    return Integer.compare(order.indexOf(a), order.indexOf(b));
  }

  private static Table table(String name) {
    return Table.create(
        name,
        StringColumn.create("setting"),
        StringColumn.create("paper"),
        StringColumn.create("Config.paper()"),
        StringColumn.create("this run"));
  }

  private static void grids(
      Table t, List<Double> paper, List<Double> run, String setting, String stated) {
    add(
        t,
        setting,
        stated,
        join(paper) + " (" + paper.size() + ")",
        join(run) + " (" + run.size() + ")");
  }

  private static void add(Table t, String setting, Object paper, Object protocol, Object run) {
    t.stringColumn(0).append(setting);
    t.stringColumn(1).append(text(paper));
    t.stringColumn(2).append(text(protocol));
    t.stringColumn(3).append(text(run));
  }

  /** A count with thousands separators (19,800, as the paper writes it); anything else as it is. */
  private static String text(Object x) {
    return x instanceof Integer i ? String.format(Locale.ROOT, "%,d", i) : String.valueOf(x);
  }

  private static String join(List<? extends Number> xs) {
    return xs.stream()
        .map(x -> x.doubleValue() == Math.rint(x.doubleValue())
            ? String.valueOf(x.longValue())
            : String.format(Locale.ROOT, "%g", x.doubleValue()).replaceAll("0+$", ""))
        .collect(Collectors.joining(", "));
  }
}
