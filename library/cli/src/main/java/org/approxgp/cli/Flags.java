package org.approxgp.cli;

import java.util.List;
import org.approxgp.likelihood.Likelihood;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;
import org.approxgp.model.SettingException;
import org.approxgp.model.Settings;

/**
 * The command line's side of {@link Registry}: flag {@code --x} is setting {@code x}, and a refusal is worded with
 * the flag. Nothing is validated here that the registry validates.
 */
final class Flags {
  private Flags() {}

  /** The registry's refusal as bad input naming the flag. */
  static CliException badInput(SettingException e) {
    return CliException.badInput("--" + e.setting() + " " + e.problem());
  }

  /**
   * The inference method {@code name} with {@code settings}; a refusal of the name itself is worded with
   * {@code nameFlag} (e.g. "--methods").
   */
  static InferenceMethod inference(String name, Settings settings, String nameFlag) {
    try {
      return Registry.inference(name, settings);
    } catch (SettingException e) {
      throw e.setting().equals("inference")
          ? CliException.badInput(nameFlag + ": " + e.problem())
          : badInput(e);
    }
  }

  /**
   * The likelihood {@code name} with its flags' settings, if this command takes it ({@code accepted}; another
   * command's likelihood is refused with {@code elsewhere}, e.g. "gaussian is for approxgp compare").
   */
  static Likelihood likelihood(
      String name, Settings settings, List<String> accepted, String elsewhere) {
    if (!accepted.contains(name)) {
      boolean known = Registry.likelihoodNames().contains(name);
      throw CliException.badInput("--likelihood: "
          + (known ? name + " is not for this command" : "unknown '" + name + "'")
          + " (known here: " + String.join(", ", accepted) + (known ? "; " + elsewhere : "") + ")");
    }
    try {
      return Registry.likelihood(name, settings);
    } catch (SettingException e) {
      throw badInput(e);
    }
  }
}
