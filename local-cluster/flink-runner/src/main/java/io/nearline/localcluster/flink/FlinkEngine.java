package io.nearline.localcluster.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.LocalBroker;
import io.nearline.localcluster.kit.LocalEngine;
import java.nio.file.Path;

/** What every Flink runner command is as an engine: Flink, its mirrored counters, the broker in this JVM. */
abstract class FlinkEngine implements LocalEngine {

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return FlinkLocal.METRICS;
    }

    @Override
    public LocalBroker startBroker(Path dir) {
        return FlinkLocal.broker(dir);
    }
}
