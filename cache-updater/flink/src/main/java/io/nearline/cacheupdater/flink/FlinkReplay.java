package io.nearline.cacheupdater.flink;

import io.nearline.engine.flink.FlinkMetrics;

import io.nearline.bootstrap.BootstrapSettings;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.replay.CdcReplay;
import io.nearline.cacheupdater.replay.ReplayCdcOptions;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code replay cdc --engine flink}: the embedded broker in this JVM, and the real job on a local
 * MiniCluster with its Kafka source bounded to the topic's end at start, so the job ends by itself.
 */
@Command(name = "replay-cdc", mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater job on Flink and writes the final cache state.")
public final class FlinkReplay implements Callable<Integer>, CdcReplay.Engine {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        Path work = options.workDir();
        CdcReplay.validate(options, work);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"))) {
            return CdcReplay.run(options, work, kafka.bootstrapServers(), this);
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
    public void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords) throws Exception {
        // a replay fails fast instead of restarting forever
        Configuration flink = new Configuration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(settings.parallelism(), flink);
        CacheUpdaterJob.define(env, config, CacheUpdaterJob.kafkaSource(settings, true),
                bootstrapRecords > 0 ? CacheUpdaterJob.bootstrapSource(settings, BootstrapSettings.from(config).topic(), true) : null,
                CacheUpdaterJob.deadLetterSink(settings));
        env.execute("nearline-cache-updater-replay");
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new FlinkReplay())).execute(args));
    }
}
