package io.nearline.localcluster.flink;

import io.nearline.cacheupdater.testkit.CdcConformanceSuite;
import io.nearline.common.metrics.InMemoryMetrics;
import java.util.List;
import picocli.CommandLine;

/** The conformance suite through the real job on Flink: embedded broker, MiniCluster, RocksDB store. */
class FlinkConformanceIT extends CdcConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        return new CommandLine(new FlinkReplay()).execute(args.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return FlinkLocal.METRICS;
    }
}
