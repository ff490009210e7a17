package io.nearline.localcluster.samza;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.LocalBroker;
import io.nearline.localcluster.kit.LocalEngine;
import io.nearline.localcluster.kit.LocalRunOptions;
import java.io.IOException;
import java.nio.file.Path;

/** What every Samza runner command is as an engine: Samza, its mirrored counters, the broker in a JVM of its own. */
abstract class SamzaEngine implements LocalEngine {

    /** The command's run options (the broker jar among them). */
    abstract LocalRunOptions run();

    @Override
    public String name() {
        return "samza";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return SamzaLocal.METRICS;
    }

    @Override
    public LocalBroker startBroker(Path dir) throws IOException {
        return SamzaLocal.broker(run(), dir);
    }
}
