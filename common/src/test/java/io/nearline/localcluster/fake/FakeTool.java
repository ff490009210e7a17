package io.nearline.localcluster.fake;

/** Stands for a local tool in the self-test of the production-isolation rules. */
public final class FakeTool {

    private FakeTool() {}

    public static int run() {
        return 1;
    }
}
