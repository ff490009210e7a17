package io.nearline.common.cyclefixture.upper;

import io.nearline.common.cyclefixture.lower.Lower;

/** With {@link Lower}, a planted package cycle for the self-test of the no-cycles rule. */
public final class Upper {

    private Upper() {}

    public static int value() {
        return Lower.value() + 1;
    }
}
