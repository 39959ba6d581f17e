package org.approxgp.experiment;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a component of an experiment's config record that only selects which trials run (the data sets, the
 * methods, the number of seeds): no trial's result depends on it. Such components are left out of the key of
 * the results store ({@link ConfigHash#storeCanonical}), so that running fewer or more of them reuses every
 * stored trial instead of starting a new store. A component that changes any trial's result must not carry it;
 * the experiment's tests check the claim (a trial's row is the same under a config that selects differently).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Selects {}
