package org.approxgp.sparse;

import java.util.List;
import java.util.OptionalInt;

/**
 * The sparse GP regression family by name — SSGP, VSSGP, sVBSSGP, DTC++ (SVGP) and PIC++ (Hoang, Hoang &amp; Low
 * 2017, §5) — and the settings one run of a model takes. {@code model.Registry.regression} builds an
 * {@link Options} from names and validates each value there; the command line ({@code approxgp regress}), the
 * sVBSSGP paper's experiments and notebooks, and Spark (which rebuilds those experiments) all start from it.
 */
public final class SparseRegression {
  private SparseRegression() {}

  /** The five models, by the names {@code approxgp regress --model} and the experiments use. */
  public static final List<String> MODELS = List.of("svbssgp", "dtc", "pic", "ssgp", "vssgp");

  /** Basis functions 2m of the spectral models by default (the paper's m = 20). */
  public static final int DEFAULT_FEATURES = 40;

  /** Inducing inputs of DTC++ and PIC++ by default (the paper's 250 on AIMPEAK). */
  public static final int DEFAULT_INDUCING = 250;

  /**
   * One run's settings; an empty optional takes the default rule on the data (set where the data are known).
   *
   * @param model one of {@link #MODELS}
   * @param features 2m basis functions (ssgp, vssgp, svbssgp), even, &ge; 2
   * @param partitions k-means partitions p (svbssgp, pic); default from the number of rows
   * @param inducing inducing inputs M, k-means centroids (dtc, pic)
   * @param iterations iteration cap; default from the model and whether it runs full batch
   * @param minibatch rows per step (vssgp, dtc) or per sampled partition (svbssgp); default: full batch while the
   *     data fit the work budget (vssgp, dtc), whole partitions (svbssgp)
   * @param gamma sVBSSGP's γ of the test conditional (Proposition 1), in [0, 1]
   * @param samples sVBSSGP's r samples of q(α) for the predictive (§4.2), &ge; 1
   * @param seed seed of k-means and of the model's random draws
   */
  public record Options(String model, int features, OptionalInt partitions, int inducing, OptionalInt iterations,
      OptionalInt minibatch, double gamma, int samples, long seed) {

    public Options {
      if (!MODELS.contains(model)) {
        throw new IllegalArgumentException("unknown model '" + model + "'; known: " + MODELS);
      }
      if (features < 2 || features % 2 != 0 || inducing < 1 || samples < 1 || !(gamma >= 0 && gamma <= 1)
          || nonPositive(partitions) || nonPositive(iterations) || nonPositive(minibatch)) {
        throw new IllegalArgumentException("bad settings for " + model + ": features " + features + ", partitions "
            + partitions + ", inducing " + inducing + ", iterations " + iterations + ", minibatch " + minibatch
            + ", gamma " + gamma + ", samples " + samples);
      }
    }

    /** {@code model} with every setting at its default. */
    public static Options defaults(String model) {
      return new Options(model, DEFAULT_FEATURES, OptionalInt.empty(), DEFAULT_INDUCING, OptionalInt.empty(),
          OptionalInt.empty(), 0, 5, 0);
    }

    /** Whether the model is one of the inducing-point models (dtc, pic), sized by M rather than 2m. */
    public boolean inducingPoints() {
      return model.equals("dtc") || model.equals("pic");
    }

    private static boolean nonPositive(OptionalInt v) {
      return v.isPresent() && v.getAsInt() < 1;
    }
  }
}
