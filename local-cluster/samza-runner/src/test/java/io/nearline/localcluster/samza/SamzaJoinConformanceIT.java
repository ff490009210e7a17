package io.nearline.localcluster.samza;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.replay.join.JoinConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The join's conformance suite through the real app on Samza's local runner: broker in its own JVM, RocksDB store. */
class SamzaJoinConformanceIT extends JoinConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-join"));
        all.addAll(args);
        all.addAll(List.of("--kafka-jar", System.getProperty("nearline.kafka.jar")));
        // through the runner, as the front door runs it: a crash test starts the runner again as the job's process
        return new CommandLine(new SamzaRunner()).execute(all.toArray(String[]::new));
    }

    @Override
    protected boolean repeatsOutputsAfterACrash() {
        return true; // Samza 1.8 has no transactional producer
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return SamzaLocal.METRICS;
    }
}
