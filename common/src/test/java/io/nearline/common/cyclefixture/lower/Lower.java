package io.nearline.common.cyclefixture.lower;

/** The lower package of the no-cycles rule's self-test: it depends on nothing above it. */
public final class Lower {

    private Lower() {}

    public static int value() {
        return 1;
    }
}
