package org.approxgp.reference;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Independent random streams from (seed, index): commons-rng XO_RO_SHI_RO_128_PP seeded with two SplitMix64
 * outputs (S. Vigna, "An experimental exploration of Marsaglia's xorshift generators, scrambled", ACM TOMS 42,
 * 2016: the finaliser mix64 of Steele, Lea &amp; Flood's SplitMix). Seeding the generator with {seed, index}
 * directly would give the all-zero state for (0, 0), from which xoroshiro emits only zeros.
 */
final class Streams {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Streams() {}

  static UniformRandomProvider of(long seed, long index) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(
        new long[] {mix64(seed + GOLDEN), mix64(index + 2 * GOLDEN)});
  }

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
