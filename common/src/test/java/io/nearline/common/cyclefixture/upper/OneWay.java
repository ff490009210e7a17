package io.nearline.common.cyclefixture.upper;

import io.nearline.common.cyclefixture.lower.Lower;

/** Depends on the lower package, which does not depend back: no cycle. */
public final class OneWay {

    private OneWay() {}

    public static int value() {
        return Lower.value();
    }
}
