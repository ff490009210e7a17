package io.nearline.localcluster.flink;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.replay.cdc.CdcConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The conformance suite through the real job on Flink: embedded broker, MiniCluster, RocksDB store. */
class FlinkConformanceIT extends CdcConformanceSuite {

    /** Through the runner, as the front door runs it: a crash test starts the runner again as the job's process. */
    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-cdc"));
        all.addAll(args);
        return CliErrors.install(new CommandLine(new FlinkRunner())).execute(all.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return FlinkLocal.METRICS;
    }
}
