package io.nearline.common.testkit;

/**
 * Test tiers beyond the unit and integration split. {@code ./mvnw verify} leaves out the tests tagged
 * {@link #SLOW}; {@code ./mvnw verify -Dfull} runs them too.
 */
public final class Tiers {

    /**
     * A scenario the default tier already runs in another form (the same crash on the embedded store,
     * the same deploy target through another job), repeated against another store, source or target:
     * run before a release and where that store, source or target changed.
     */
    public static final String SLOW = "slow";

    private Tiers() {}
}
