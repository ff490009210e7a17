package io.nearline.common.cyclefixture.lower;

import io.nearline.common.cyclefixture.upper.Upper;

/** Closes the planted cycle: the lower package calling back up. */
public final class CallsUp {

    private CallsUp() {}

    public static int value() {
        return Upper.value();
    }
}
