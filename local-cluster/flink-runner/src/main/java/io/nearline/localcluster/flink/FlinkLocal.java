package io.nearline.localcluster.flink;

import io.nearline.common.config.Config;
import io.nearline.common.config.Namespaces;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.engine.flink.FlinkMetrics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import io.nearline.localcluster.replay.LocalBroker;
import io.nearline.localcluster.replay.LocalRunOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What every local Flink run shares: the broker in this JVM, the jobs' metrics mirrored into memory
 * for the summary, and the MiniCluster's engine settings, which a cluster would take from its
 * configuration and {@code flink run}: parallelism and checkpoint interval from the run's options,
 * a restart strategy, then every non-Nearline key of the run's configuration ({@code --set
 * state.backend.type=rocksdb}) passed through to Flink.
 */
final class FlinkLocal {

    /** The jobs' counters and histograms in this JVM, summed over tasks. */
    static final InMemoryMetrics METRICS = new InMemoryMetrics();

    static {
        FlinkMetrics.mirrorInto(METRICS);
    }

    private FlinkLocal() {}

    static LocalBroker broker(Path dir) {
        EmbeddedKafka kafka = EmbeddedKafka.start(dir);
        return new LocalBroker() {
            @Override
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            @Override
            public void close() {
                kafka.close();
            }
        };
    }

    /**
     * A local environment for one run. {@code failFast}: a replay fails after two restarts instead of
     * restarting forever; the demo keeps Flink's default.
     */
    static StreamExecutionEnvironment env(LocalRunOptions run, Config config, boolean failFast) {
        Map<String, String> engine = new TreeMap<>();
        config.asMap().forEach((k, v) -> {
            if (!Namespaces.isNearline(k)) {
                engine.put(k, v);
            }
        });
        Configuration flink = new Configuration();
        flink.set(CoreOptions.DEFAULT_PARALLELISM, run.parallelism);
        flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, run.checkpointInterval);
        if (failFast) {
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        }
        flink.addAll(Configuration.fromMap(engine));
        return StreamExecutionEnvironment.createLocalEnvironment(run.parallelism, flink);
    }
}
