package io.nearline.localcluster.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.replay.join.JoinConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The join's conformance suite through the real job on Flink: embedded broker, MiniCluster, RocksDB state backend. */
class FlinkJoinConformanceIT extends JoinConformanceSuite {

    /** Through the runner, as the front door runs it: a crash test starts the runner again as the job's process. */
    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-join"));
        all.addAll(args);
        return new CommandLine(new FlinkRunner()).execute(all.toArray(String[]::new));
    }

    @Override
    protected boolean repeatsOutputsAfterACrash() {
        return false; // transactional outputs, read committed
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return FlinkLocal.METRICS;
    }
}
