package io.nearline.localcluster.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.tracking.replay.JoinConformanceSuite;
import java.util.List;
import picocli.CommandLine;

/** The join's conformance suite through the real job on Flink: embedded broker, MiniCluster, RocksDB state backend. */
class FlinkJoinConformanceIT extends JoinConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        return new CommandLine(new FlinkJoinReplay()).execute(args.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return FlinkLocal.METRICS;
    }
}
