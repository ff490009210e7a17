package io.nearline.localcluster.kit;

import io.nearline.common.metrics.InMemoryMetrics;
import java.io.IOException;
import java.nio.file.Path;

/** An engine as every local run (replay, demo, bench) sees it: its name, its counters, its broker. */
public interface LocalEngine {

    String name();

    /** The jobs' counters in this JVM, summed over tasks (reset at the start of each run). */
    InMemoryMetrics localMetrics();

    /** The broker of this run, wherever the engine needs it. */
    LocalBroker startBroker(Path dir) throws IOException;
}
