/** Special functions. */
package org.approxgp.special;
