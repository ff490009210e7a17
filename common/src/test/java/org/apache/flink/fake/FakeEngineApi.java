package org.apache.flink.fake;

/** Stands in for a Flink class so the architecture test can prove it catches an engine import. */
public final class FakeEngineApi {
    public static int touch() {
        return 1;
    }
}
