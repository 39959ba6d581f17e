package org.approxgp.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.approxgp.kernel.Linear;
import org.approxgp.likelihood.NoisyStep;
import org.approxgp.likelihood.ReferenceTable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Relaxed EP's local and global b-search, readings A, B, C, against an independent numpy implementation on real
 * cavities ({@code /inference/rep-readings/pima-searches.csv}, made by {@code library/cli/src/test/python/check_rep.py
 * --write-table}): EP's fixed point on Ripley's Pima training rows 0–59 (noisy step ε = 0.1, SE-iso ℓ = 2),
 * every third site, c ∈ {0.01, 0.05, 0.5}. The reference's tilted moments and KL are Gauss–Legendre quadrature,
 * its local search a descent from b = 0 along a log grid and its global search a dense log grid, each refined by
 * a bounded Brent (no shared code or closed form). The reference's b is accurate to about 1e-10 λ, ours to the
 * search tolerance 1e-6 λ: b λ is compared to 1e-5, the site to 1e-5 plus 1e-6 times its slope in b λ (the
 * table's last two columns; up to about 40 where b sits near the edge of reading C's admissible range).
 */
@Tag("rounding")
class RelaxedEpPimaReferenceTest {

  @Test
  void localAndGlobalSearchesAgreeWithIndependentCodeOnRealCavities() throws IOException {
    List<String[]> rows = ReferenceTable.raw("/inference/rep-readings/pima-searches.csv");
    assertEquals(360, rows.size());
    int relaxedLocal = 0;
    int relaxedGlobal = 0;
    List<String> wrong = new ArrayList<>();
    for (String[] r : rows) {
      double y = Double.parseDouble(r[1]);
      double mean = Double.parseDouble(r[2]);
      double var = Double.parseDouble(r[3]);
      double tauOld = Double.parseDouble(r[4]);
      double nuOld = Double.parseDouble(r[5]);
      double c = Double.parseDouble(r[6]);
      RelaxedEp.SiteReading reading = RelaxedEp.SiteReading.valueOf(r[7].toUpperCase(Locale.ROOT));
      RelaxedEp.Search search = RelaxedEp.Search.valueOf(r[8].toUpperCase(Locale.ROOT));
      double b = Double.parseDouble(r[9]);
      RelaxedEp rep = RelaxedEp.of(
          c,
          RelaxedEp.Objective.CLEAN,
          reading,
          RelaxedEp.Relaxation.NONNEGATIVE,
          RelaxedEp.PenaltyForm.EQ35,
          search);
      Problem p =
          Problem.of(Linear.of(1), new double[][] {{1}}, new double[] {y}, NoisyStep.of(0.1));
      RelaxedEp.State st = rep.start(p);
      SiteUpdate.Cavity cav = rep.cavity(st, 0, mean, var, tauOld, nuOld);
      SiteUpdate.Site site = rep.propose(st, p, 0, cav);
      String what = String.join(",", r);
      double lambda = cav.variance();
      // the site moves with b: our b λ is accurate to the search tolerance 1e-6, so the site to
      // 1e-6 times its
      // slope in b λ (columns 12-13, the reference's forward difference) on top of 1e-5
      double tolTau = 1e-5 + 1e-6 * Math.abs(Double.parseDouble(r[12]));
      double tolNu = 1e-5 + 1e-6 * Math.abs(Double.parseDouble(r[13]));
      if (!(Math.abs(b - st.relaxation()[0]) * lambda <= 1e-5
          && Math.abs(Double.parseDouble(r[10]) - site.tau()) <= tolTau
          && Math.abs(Double.parseDouble(r[11]) - site.nu()) <= tolNu)) {
        wrong.add(what + " -> ours b λ = " + st.relaxation()[0] * lambda + ", site (" + site.tau()
            + ", " + site.nu() + ")");
      }
      if (b > 0) {
        if (search == RelaxedEp.Search.LOCAL) {
          relaxedLocal++;
        } else {
          relaxedGlobal++;
        }
      }
    }
    assertTrue(
        wrong.isEmpty(),
        wrong.size() + " of " + rows.size() + " rows differ (b λ or the site by more than"
            + " 1e-5):\n" + String.join("\n", wrong));
    assertTrue(
        relaxedLocal >= 30 && relaxedGlobal >= 30,
        "the table must exercise relaxed sites, has " + relaxedLocal + " local, " + relaxedGlobal
            + " global");
  }
}
