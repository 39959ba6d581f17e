package org.approxgp.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.approxgp.inference.Posterior;
import org.approxgp.inference.PowerEp;
import org.approxgp.inference.Problem;
import org.approxgp.inference.RelaxedEp;
import org.approxgp.inference.SiteLoop;
import org.approxgp.inference.SiteLoopOptions;
import org.approxgp.kernel.SquaredExponential;
import org.approxgp.likelihood.Gaussian;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.Probit;
import org.approxgp.sparse.BoundMonitor;
import org.junit.jupiter.api.Test;

/** The one registry: every name builds, every setting is validated once and refused with its name. */
class RegistryTest {
  private static final double[][] X = {
    {-1.1, 0.3}, {0.4, -0.9}, {1.3, 0.8}, {-0.2, 1.5}, {0.7, 0.1}, {-0.8, -0.6}
  };
  private static final double[] Y = {1, -1, 1, 1, -1, -1};

  private static Problem problem() {
    return Problem.of(SquaredExponential.iso(0.9, 1.7), X, Y, NoisyStep.of(0.15));
  }

  @Test
  void svbssgpsStepScheduleAndRateAreSettings() {
    var d = Registry.regression("svbssgp").steps();
    assertEquals(org.approxgp.sparse.SparseRegression.SvbssgpSteps.defaults(), d);
    var s = Registry.regression(
            "svbssgp",
            Settings.of(
                "step-initial", 0.2, "step-tau", "0.5", "step-kappa", 0.75, "learning-rate", 0.01))
        .steps();
    assertEquals(new org.approxgp.sparse.StepSchedule(0.2, 0.5, 0.75), s.natural());
    assertEquals(0.01, s.learningRate());
    for (Object[] bad : new Object[][] {
      {"step-initial", 1.5}, {"step-tau", -1}, {"step-kappa", "x"}, {"learning-rate", 0}
    }) {
      SettingException e = assertThrows(
          SettingException.class,
          () -> Registry.regression("svbssgp", Settings.of((String) bad[0], bad[1])),
          bad[0] + " = " + bad[1]);
      assertEquals(bad[0], e.setting());
    }
    // a setting of sVBSSGP's optimiser is refused by a model that has no such optimiser
    assertThrows(
        SettingException.class,
        () -> Registry.regression("dtc", Settings.of("learning-rate", 0.1)));
  }

  /** Every stochastic model takes the stopping rule: its test, window and tolerance; SSGP (L-BFGS only) does not. */
  @Test
  void everyStochasticModelsStoppingRuleIsASetting() {
    for (String model : List.of("svbssgp", "dtc", "pic", "vssgp")) {
      // sVBSSGP's slope test spans the last two thirds of the run, the others' the last half
      BoundMonitor.Rule own = model.equals("svbssgp")
          ? org.approxgp.sparse.SparseRegression.SVBSSGP_STOPPING
          : BoundMonitor.Rule.DEFAULT;
      assertEquals(own, Registry.regression(model).stopping(), model);
      assertEquals(
          model.equals("svbssgp") ? 2.0 / 3 : BoundMonitor.DEFAULT_SPAN,
          Registry.regression(model).stopping().span(),
          model);
      assertEquals(
          new BoundMonitor.Rule(BoundMonitor.Test.SLOPE, 40, 1e-3, own.span()),
          Registry.regression(model, Settings.of("stop-window", 40, "stop-tolerance", 1e-3))
              .stopping(),
          model);
      assertEquals(
          own.withSpan(0.8),
          Registry.regression(model, Settings.of("stop-span", 0.8)).stopping(),
          model);
      // choosing a test takes that test's own defaults for what is not set
      assertEquals(
          BoundMonitor.Rule.ADVI,
          Registry.regression(model, Settings.of("stopping", "means")).stopping(),
          model);
      assertEquals(
          new BoundMonitor.Rule(BoundMonitor.Test.MEANS, 30, 0.01),
          Registry.regression(model, Settings.of("stopping", "means", "stop-window", 30))
              .stopping(),
          model);
      assertNull(Registry.regression(model, Settings.of("stopping", "none")).stopping(), model);
      for (Object[] bad : new Object[][] {
        {"stopping", "later"},
        {"stopping", "bound"},
        {"stop-window", 1},
        {"stop-tolerance", -0.1},
        {"stop-span", 1},
        {"stop-span", 0}
      }) {
        SettingException e = assertThrows(
            SettingException.class,
            () -> Registry.regression(model, Settings.of((String) bad[0], bad[1])),
            model + ": " + bad[0] + " = " + bad[1]);
        assertEquals(bad[0], e.setting());
      }
      SettingException idle = assertThrows(
          SettingException.class,
          () -> Registry.regression(model, Settings.of("stopping", "none", "stop-window", 10)));
      assertEquals("stop-window", idle.setting());
      // a span is the slope test's: refused with the windowed means
      SettingException means = assertThrows(
          SettingException.class,
          () -> Registry.regression(model, Settings.of("stopping", "means", "stop-span", 0.6)));
      assertEquals("stop-span", means.setting());
    }
    SettingException ssgp = assertThrows(
        SettingException.class,
        () -> Registry.regression("ssgp", Settings.of("stopping", "slope")));
    assertEquals("stopping", ssgp.setting());
  }

  @Test
  void everyNameBuildsUnderItsOwnName() {
    assertEquals(
        List.of("ep", "qp", "laplace", "vb", "power-ep", "rep"), Registry.inferenceNames());
    for (String name : Registry.inferenceNames()) {
      InferenceMethod m = Registry.inference(name);
      assertEquals(name, m.name());
      Posterior p = m.infer(problem(), null);
      // the diagnostics name the rule with its parameter, e.g. "power-ep(u=0.8)"
      assertTrue(p.diagnostics().method().startsWith(name), p.diagnostics().method());
      assertTrue(Double.isFinite(p.logEvidence()), name);
    }
  }

  /** A setting through the registry is the typed constructor's method: same sites and evidence, bit for bit. */
  @Test
  void settingsBuildTheTypedMethods() {
    Problem p = problem();
    Posterior viaName = Registry.inference(
            "rep",
            Settings.of(
                "penalty",
                3,
                "site-reading",
                "c",
                "relaxation-search",
                "global",
                "negative-sites",
                "clip"))
        .infer(p, null);
    Posterior direct = Methods.relaxedEp(
            RelaxedEp.of(
                3,
                RelaxedEp.Objective.CLEAN,
                RelaxedEp.SiteReading.C,
                RelaxedEp.DEFAULT_RELAXATION,
                RelaxedEp.PenaltyForm.EQ35,
                RelaxedEp.Search.GLOBAL),
            SiteLoopOptions.defaults().withNegativeSites(SiteLoop.NegativeSitePrecision.CLIP))
        .infer(p, null);
    assertEquals(direct.logEvidence(), viaName.logEvidence(), 0.0);
    for (int i = 0; i < Y.length; i++) {
      assertEquals(direct.sites().tau()[i], viaName.sites().tau()[i], 0.0);
    }
    Posterior words =
        Registry.inference("power-ep", Settings.of("power", "0.6")).infer(p, null);
    Posterior typed =
        Methods.powerEp(0.6, PowerEp.Variant.MINKA, Methods.keepOptions()).infer(p, null);
    assertEquals(typed.logEvidence(), words.logEvidence(), 0.0);
  }

  /**
   * {@code objective} builds the rule with that line-search objective (eq36 and unnormalised bit for bit as the typed
   * rule), and the objectives are different methods: on this problem at a small c they give different sites.
   */
  @Test
  void objectiveSettingSelectsTheLineSearchObjective() {
    Problem p = problem();
    java.util.Map<String, RelaxedEp.Objective> names = java.util.Map.of(
        "clean", RelaxedEp.Objective.CLEAN,
        "unnormalised", RelaxedEp.Objective.CLEAN_UNNORMALISED,
        "eq36", RelaxedEp.Objective.EQ36);
    java.util.Map<String, double[]> tau = new java.util.TreeMap<>();
    names.forEach((word, objective) -> {
      Posterior viaName = Registry.inference("rep", Settings.of("penalty", 0.05, "objective", word))
          .infer(p, null);
      Posterior direct = Methods.relaxedEp(
              RelaxedEp.of(0.05, objective, RelaxedEp.SiteReading.B), Methods.keepOptions())
          .infer(p, null);
      assertArrayEquals(direct.sites().tau(), viaName.sites().tau(), 0.0, word);
      tau.put(word, viaName.sites().tau());
    });
    assertFalse(java.util.Arrays.equals(tau.get("clean"), tau.get("eq36")), "eq36 = clean");
    assertRefused(
        "objective",
        "must be clean, unnormalised or eq36, got 'kl'",
        () -> Registry.inference("rep", Settings.of("objective", "kl")));
  }

  /**
   * {@code gradient} none: one site-loop run and no gradient, the method's default otherwise; {@code max-sweeps}
   * caps the loop.
   */
  @Test
  void gradientAndSweepCap() {
    Problem p = problem();
    for (String name : List.of("ep", "power-ep", "rep")) {
      Posterior full = Registry.inference(name).infer(p, null);
      Posterior none = Registry.inference(name, Settings.of("gradient", "none")).infer(p, null);
      assertTrue(full.logEvidenceGradient() != null, name);
      assertEquals(null, none.logEvidenceGradient(), name);
      assertEquals(full.logEvidence(), none.logEvidence(), 0.0, name);
      Posterior capped = Registry.inference(name, Settings.of("max-sweeps", 2)).infer(p, null);
      assertEquals(2, capped.diagnostics().iterations(), name);
    }
    assertEquals(
        Registry.inference("power-ep").infer(p, null).logEvidenceGradient()[0],
        Registry.inference("power-ep", Settings.of("gradient", "numerical"))
            .infer(p, null)
            .logEvidenceGradient()[0],
        0.0);
    assertRefused(
        "gradient",
        "must be numerical or none, got 'exact'",
        () -> Registry.inference("rep", Settings.of("gradient", "exact")));
    assertRefused(
        "gradient",
        "must be exact or none, got 'numerical'",
        () -> Registry.inference("ep", Settings.of("gradient", "numerical")));
    assertRefused(
        "max-sweeps",
        "must be a whole number >= 1, got 0",
        () -> Registry.inference("ep", Settings.of("max-sweeps", 0)));
    assertRefused(
        "max-sweeps",
        "applies to ep, power-ep, rep only, not to vb",
        () -> Registry.inference("vb", Settings.of("max-sweeps", 5)));
  }

  @Test
  void refusalsNameTheSetting() {
    assertRefused(
        "inference",
        "unknown 'epp' (known: ep, qp, laplace, vb, power-ep, rep)",
        () -> Registry.inference("epp"));
    assertRefused(
        "power",
        "must be in (0, 1], got 1.5",
        () -> Registry.inference("power-ep", Settings.of("power", 1.5)));
    assertRefused(
        "power",
        "applies to power-ep only, not to rep",
        () -> Registry.inference("rep", Settings.of("power", 0.5)));
    assertRefused(
        "negative-sites",
        "applies to ep, qp, power-ep, rep only, not to vb",
        () -> Registry.inference("vb", Settings.of("negative-sites", "keep")));
    assertRefused(
        "negative-sites",
        "must be keep or clip, got 'drop'",
        () -> Registry.inference("ep", Settings.of("negative-sites", "drop")));
    assertRefused(
        "evidence",
        "optional needs gradient none (a gradient needs the evidence)",
        () -> Registry.inference("rep", Settings.of("evidence", "optional")));
    assertRefused(
        "evidence",
        "must be required or optional, got 'maybe'",
        () -> Registry.inference("ep", Settings.of("evidence", "maybe", "gradient", "none")));
    assertRefused(
        "site-reading",
        "must be a, b or c, got 'd'",
        () -> Registry.inference("rep", Settings.of("site-reading", "d")));
    assertRefused(
        "penalty",
        "must be a number, got 'ten'",
        () -> Registry.inference("rep", Settings.of("penalty", "ten")));
    assertRefused(
        "damping",
        "is not a setting of ep (its settings: negative-sites, max-sweeps, gradient, evidence)",
        () -> Registry.inference("ep", Settings.of("damping", 0.5)));
    assertRefused(
        "epsilon",
        "is required by noisy-step (the label-flip probability, in (0, 0.5))",
        () -> Registry.likelihood("noisy-step"));
    assertRefused(
        "epsilon",
        "must be in (0, 0.5), got 0.5",
        () -> Registry.likelihood("noisy-step", Settings.of("epsilon", 0.5)));
    assertRefused(
        "noise-variance",
        "must be positive and finite, got -1.0",
        () -> Registry.likelihood("gaussian", Settings.of("noise-variance", -1)));
    assertRefused(
        "epsilon",
        "applies to noisy-step only, not to probit",
        () -> Registry.likelihood("probit", Settings.of("epsilon", 0.1)));
    assertRefused(
        "likelihood",
        "unknown 'logit' (known: probit, poisson-square, noisy-step, gaussian)",
        () -> Registry.likelihood("logit"));
  }

  @Test
  void regressionModelsByName() {
    assertEquals(List.of("svbssgp", "dtc", "pic", "ssgp", "vssgp"), Registry.regressionNames());
    assertEquals(
        org.approxgp.sparse.SparseRegression.MODELS,
        Registry.regressionNames(),
        "the registry's regression names are the models the sparse package builds, in its order");
    org.approxgp.sparse.SparseRegression.Options d = Registry.regression("svbssgp");
    assertTrue(d.features().isEmpty(), "2m is chosen on the data");
    assertEquals(40, d.featuresFor(100_000));
    assertTrue(
        d.partitions().isEmpty() && d.minibatch().isEmpty() && d.iterations().isEmpty());
    org.approxgp.sparse.SparseRegression.Options o = Registry.regression(
        "pic", Settings.of("inducing", 30, "partitions", "8", "seed", 9_007_199_254_740_993L));
    assertEquals(30, o.inducing().getAsInt());
    assertTrue(Registry.regression("dtc").inducing().isEmpty(), "M is chosen on the data");
    assertEquals(8, o.partitions().getAsInt());
    assertEquals(9_007_199_254_740_993L, o.seed(), "a long seed beyond 2^53 is kept exactly");
    assertEquals(
        Integer.MAX_VALUE,
        Registry.regression("svbssgp", Settings.of("minibatch", "all"))
            .minibatch()
            .getAsInt(),
        "'all': whole partitions");
    assertRefused(
        "model",
        "unknown 'gpr' (known: svbssgp, dtc, pic, ssgp, vssgp)",
        () -> Registry.regression("gpr"));
    assertRefused(
        "features",
        "must be an even number >= 2 (2m basis functions), got 3",
        () -> Registry.regression("ssgp", Settings.of("features", 3)));
    assertRefused(
        "inducing",
        "applies to dtc, pic only, not to ssgp",
        () -> Registry.regression("ssgp", Settings.of("inducing", 10)));
    assertRefused(
        "minibatch",
        "must be a whole number >= 1, got 0",
        () -> Registry.regression("svbssgp", Settings.of("minibatch", 0)));
    assertRefused(
        "gamma",
        "must be in [-1, 1] (Proposition 1: |γ| <= 1), got 1.5",
        () -> Registry.regression("svbssgp", Settings.of("gamma", 1.5)));
    // the paper's whole range: negative γ is a test conditional of Proposition 1 too
    assertEquals(
        -0.5, Registry.regression("svbssgp", Settings.of("gamma", -0.5)).gamma().getAsDouble());
    assertRefused(
        "partitions",
        "must be a whole number >= 1, got 2.5",
        () -> Registry.regression("pic", Settings.of("partitions", 2.5)));
  }

  /**
   * SSGP's and VSSGP's frequencies: held-out rows choose between learned and fixed frequencies by default; the
   * paper's experiments ask for the learned ones by name.
   */
  @Test
  void frequenciesSetting() {
    for (String m : List.of("ssgp", "vssgp")) {
      assertEquals(
          org.approxgp.sparse.SparseRegression.Frequencies.HELD_OUT,
          Registry.regression(m).frequencies(),
          m);
      assertEquals(
          org.approxgp.sparse.SparseRegression.Frequencies.LEARNED,
          Registry.regression(m, Settings.of("frequencies", "learned")).frequencies(),
          m);
      assertEquals(
          org.approxgp.sparse.SparseRegression.Frequencies.HELD_OUT,
          Registry.regression(m, Settings.of("frequencies", "held-out")).frequencies(),
          m);
    }
    SettingException bad = assertThrows(
        SettingException.class,
        () -> Registry.regression("ssgp", Settings.of("frequencies", "fixed")));
    assertEquals("frequencies", bad.setting(), bad.getMessage());
    assertRefused(
        "frequencies",
        "applies to ssgp, vssgp only, not to dtc",
        () -> Registry.regression("dtc", Settings.of("frequencies", "learned")));
  }

  /**
   * DTC++'s and PIC++'s start: the median heuristic for DTC++ and unit length-scales for PIC++ unless set; the paper's
   * stored experiments ask for the unit start by name.
   */
  @Test
  void initialLengthscalesSetting() {
    org.approxgp.sparse.SparseRegression.LengthscaleStart median =
        org.approxgp.sparse.SparseRegression.LengthscaleStart.MEDIAN;
    org.approxgp.sparse.SparseRegression.LengthscaleStart unit =
        org.approxgp.sparse.SparseRegression.LengthscaleStart.UNIT;
    assertEquals(median, Registry.regression("dtc").startFor());
    assertEquals(unit, Registry.regression("pic").startFor());
    for (String m : List.of("dtc", "pic")) {
      assertEquals(
          unit,
          Registry.regression(m, Settings.of("initial-lengthscales", "unit")).startFor(),
          m);
      assertEquals(
          median,
          Registry.regression(m, Settings.of("initial-lengthscales", "median")).startFor(),
          m);
    }
    assertEquals(
        "initial-lengthscales",
        assertThrows(
                SettingException.class,
                () -> Registry.regression("dtc", Settings.of("initial-lengthscales", "one")))
            .setting());
    assertRefused(
        "initial-lengthscales",
        "applies to dtc, pic only, not to ssgp",
        () -> Registry.regression("ssgp", Settings.of("initial-lengthscales", "unit")));
  }

  /**
   * VSSGP's initial frequency variance: {@link org.approxgp.sparse.SparseRegression#VSSGP_FREQUENCY_VARIANCE} unless
   * set; a positive finite number, for vssgp only.
   */
  @Test
  void frequencyVarianceSetting() {
    assertEquals(
        org.approxgp.sparse.SparseRegression.VSSGP_FREQUENCY_VARIANCE,
        Registry.regression("vssgp").frequencyVarianceOrDefault());
    assertEquals(
        1e-6,
        Registry.regression("vssgp", Settings.of("frequency-variance", 1e-6))
            .frequencyVarianceOrDefault());
    for (Object bad : List.of(0.0, -1.0, Double.POSITIVE_INFINITY, Double.NaN)) {
      assertEquals(
          "frequency-variance",
          assertThrows(
                  SettingException.class,
                  () -> Registry.regression("vssgp", Settings.of("frequency-variance", bad)),
                  String.valueOf(bad))
              .setting());
    }
    assertRefused(
        "frequency-variance",
        "applies to vssgp only, not to ssgp",
        () -> Registry.regression("ssgp", Settings.of("frequency-variance", 1e-6)));
  }

  @Test
  void likelihoodsByName() {
    assertSame(Probit.get(), Registry.likelihood("probit"));
    assertEquals(
        0.1,
        ((NoisyStep) Registry.likelihood("noisy-step", Settings.of("epsilon", 0.1))).epsilon(),
        0);
    assertTrue(
        Registry.likelihood("gaussian", Settings.of("noise-variance", 0.3)) instanceof Gaussian);
  }

  @Test
  void settingsAreImmutableAndOrdered() {
    Settings s = Settings.of("b", 1, "a", "x");
    Settings t = s.with("c", 2.5).with("b", null);
    assertEquals(List.of("b", "a"), List.copyOf(s.names()));
    assertEquals(List.of("a", "c"), List.copyOf(t.names()));
    assertEquals("a=x, c=2.5", t.toString());
    assertEquals("defaults", Settings.none().toString());
    assertEquals(List.of("c"), List.copyOf(t.restrictedTo(List.of("c", "z")).names()));
    assertThrows(IllegalArgumentException.class, () -> Settings.of("a", 1, "a", 2));
    assertThrows(IllegalArgumentException.class, () -> Settings.of("a"));
  }

  private static void assertRefused(String setting, String problem, Runnable r) {
    SettingException e = assertThrows(SettingException.class, r::run);
    assertEquals(setting, e.setting(), e.getMessage());
    assertEquals(problem, e.problem());
  }

  /**
   * The sparse methods by name: at Z = X each runs the same rule and loop settings as the exact method of that name
   * (means and log evidence equal); names and settings without a sparse form are refused, naming the setting.
   */
  @Test
  void sparseMethodsAreTheExactMethodsRulesOnInducingPoints() {
    Problem p = Problem.of(SquaredExponential.iso(0.9, 1.7), X, Y, Probit.get());
    Object[][] cases = {
      {"ep", Settings.none(), "fitc-ep", 1.0},
      {"qp", Settings.none(), "sparse-qp", 1.0},
      {"power-ep", Settings.of("power", 0.5), "sparse-power-ep", 0.5},
      {"ep", Settings.of("negative-sites", "keep", "max-sweeps", 500), "fitc-ep", 1.0},
    };
    for (Object[] c : cases) {
      String name = (String) c[0];
      Settings s = (Settings) c[1];
      Registry.SparseMethod m = Registry.sparseInference(name, s);
      assertEquals(c[2], m.name());
      assertEquals((double) c[3], m.power());
      assertEquals(!name.equals("qp"), m.energyGradient());
      Posterior exact = Registry.inference(name, s).infer(p, null);
      org.approxgp.inference.SparsePosterior sparse = org.approxgp.inference.SparseSiteLoop.run(
          new org.approxgp.inference.SparseProblem(p, X),
          m.rule(),
          m.loop().withGradient(false),
          null);
      for (int i = 0; i < X.length; i++) {
        assertEquals(exact.mean()[i], sparse.mean()[i], 1e-9, name + " mean " + i);
        assertEquals(exact.variance()[i], sparse.variance()[i], 1e-9, name + " variance " + i);
      }
      assertEquals(exact.logEvidence(), sparse.logEvidence(), 1e-9, name + " log evidence");
    }
    assertEquals(List.of("ep", "qp", "power-ep"), Registry.sparseInferenceNames());
    for (String name : List.of("laplace", "vb", "rep", "magic")) {
      SettingException e = assertThrows(
          SettingException.class, () -> Registry.sparseInference(name, Settings.none()));
      assertEquals("inference", e.setting(), e.getMessage());
    }
    SettingException e = assertThrows(
        SettingException.class,
        () -> Registry.sparseInference("power-ep", Settings.of("power-ep-variant", "appendix-c")));
    assertEquals("power-ep-variant", e.setting());
    e = assertThrows(
        SettingException.class,
        () -> Registry.sparseInference("power-ep", Settings.of("gradient", "numerical")));
    assertEquals("gradient", e.setting());
    e = assertThrows(
        SettingException.class, () -> Registry.sparseInference("qp", Settings.of("power", 0.5)));
    assertEquals("power", e.setting());
  }
}
