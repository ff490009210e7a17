package io.nearline.common.testkit;

/**
 * Seeds for randomized tests: fresh each run (so runs explore), fixed with {@code -Dnearline.seed=N}
 * (so a failure can be replayed). Put {@link #replay(long)} in every assertion message.
 */
public final class Seeds {

    private Seeds() {}

    public static long seed() {
        Long fixed = Long.getLong("nearline.seed");
        return fixed != null
                ? fixed
                : System.nanoTime() ^ Thread.currentThread().getId();
    }

    public static String replay(long seed) {
        return "seed=" + seed + " (replay with -Dnearline.seed=" + seed + ")";
    }
}
