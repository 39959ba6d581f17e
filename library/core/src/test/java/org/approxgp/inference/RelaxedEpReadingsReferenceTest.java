package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.approxgp.kernel.Linear;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.ReferenceTable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Relaxed EP's site readings A, B, C with the global search and nonnegative b against an independent numpy
 * implementation ({@code /inference/rep-readings/readings.csv}, made by {@code generate.py} beside it: tilted moments
 * and the KL by Gauss–Legendre quadrature on each side of the noisy step's jump, a 1,401-point scan and a bounded
 * Brent, no shared code or closed form): the chosen b and the new site (τ̃, ν̃) for six sites, three of which relax.
 * The reference's b is accurate to about 1e-10 λ, ours to the search tolerance 1e-6 λ; the site follows b with a
 * slope of order 1, so both are compared to 1e-5 (absolute, the values are of order 1).
 */
@Tag("rounding")
class RelaxedEpReadingsReferenceTest {

  @Test
  void readingsAndGlobalSearchAgreeWithIndependentCode() throws IOException {
    List<String[]> rows = ReferenceTable.raw("/inference/rep-readings/readings.csv");
    assertEquals(18, rows.size());
    int relaxed = 0;
    for (String[] r : rows) {
      double eps = Double.parseDouble(r[0]);
      double y = Double.parseDouble(r[1]);
      double mean = Double.parseDouble(r[2]);
      double var = Double.parseDouble(r[3]);
      double tauOld = Double.parseDouble(r[4]);
      double nuOld = Double.parseDouble(r[5]);
      double c = Double.parseDouble(r[6]);
      RelaxedEp.SiteReading reading =
          RelaxedEp.SiteReading.valueOf(r[7].toUpperCase(java.util.Locale.ROOT));
      double b = Double.parseDouble(r[8]);
      RelaxedEp rep = RelaxedEp.of(
          c,
          RelaxedEp.Objective.CLEAN,
          reading,
          RelaxedEp.Relaxation.NONNEGATIVE,
          RelaxedEp.PenaltyForm.EQ35,
          RelaxedEp.Search.GLOBAL);
      Problem p =
          Problem.of(Linear.of(1), new double[][] {{1}}, new double[] {y}, NoisyStep.of(eps));
      RelaxedEp.State st = rep.start(p);
      SiteUpdate.Cavity cav = rep.cavity(st, 0, mean, var, tauOld, nuOld);
      SiteUpdate.Site site = rep.propose(st, p, 0, cav);
      String what = String.join(",", r);
      double lambda = cav.variance();
      assertEquals(b * lambda, st.relaxation()[0] * lambda, 1e-5, "b λ: " + what);
      assertEquals(Double.parseDouble(r[9]), site.tau(), 1e-5, "site τ̃: " + what);
      assertEquals(Double.parseDouble(r[10]), site.nu(), 1e-5, "site ν̃: " + what);
      relaxed += b > 0 ? 1 : 0;
    }
    assertTrue(relaxed >= 6, "the table must exercise relaxed sites, has " + relaxed);
  }
}
