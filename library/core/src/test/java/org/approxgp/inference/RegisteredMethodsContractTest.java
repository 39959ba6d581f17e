package org.approxgp.inference;

import java.util.List;
import org.approxgp.model.InferenceMethod;
import org.approxgp.model.Registry;

/** Every inference method the library offers by name ({@link Registry#inferenceNames()}) meets the contract. */
class RegisteredMethodsContractTest extends InferenceContract {
  @Override
  protected List<InferenceMethod> methods() {
    return Registry.inferenceNames().stream().map(Registry::inference).toList();
  }
}
