package io.nearline.tracking.flink;

import io.nearline.engine.flink.FlinkMetrics;

import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import io.nearline.localcluster.replay.CliErrors;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.replay.JoinReplay;
import io.nearline.tracking.replay.ReplayJoinOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code replay join --engine flink}: the embedded broker in this JVM, and the real job on a local
 * MiniCluster (RocksDB state backend) with its sources bounded to the topics' end at start: at the
 * end the watermark reaches the end of time and every pending request is flushed.
 */
@Command(name = "replay-join", mixinStandardHelpOptions = true,
        description = "Replays tracking events through the feed-tracking-join job on Flink and writes its outputs.")
public final class FlinkJoinReplay implements Callable<Integer>, JoinReplay.Engine {

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        JoinReplay.validate(options);
        Path work = options.workDir();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"))) {
            return JoinReplay.run(options, work, kafka.bootstrapServers(), this);
        }
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return FlinkMetrics.local();
    }

    @Override
    public void run(Config config, JoinSettings settings, int partitions, Path work) throws Exception {
        Configuration flink = new Configuration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay"); // a replay fails fast
        flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        flink.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        flink.set(RocksDBOptions.LOCAL_DIRECTORIES, work.resolve("flink-rocksdb").toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(settings.parallelism(), flink);
        TrackingJoinJob.define(env, settings, true);
        env.execute("nearline-tracking-join-replay");
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new FlinkJoinReplay())).execute(args));
    }
}
