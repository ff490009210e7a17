package io.nearline.localcluster.samza;

import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.replay.cdc.CdcConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** The conformance suite through the real app on Samza's local runner: broker in its own JVM, RocksDB store. */
class SamzaConformanceIT extends CdcConformanceSuite {

    @Override
    protected int replay(List<String> args) {
        List<String> all = new ArrayList<>(List.of("replay-cdc"));
        all.addAll(args);
        all.addAll(List.of("--kafka-jar", System.getProperty("nearline.kafka.jar")));
        return CliErrors.install(new CommandLine(new SamzaRunner())).execute(all.toArray(String[]::new));
    }

    @Override
    protected InMemoryMetrics engineMetrics() {
        return SamzaLocal.METRICS;
    }
}
