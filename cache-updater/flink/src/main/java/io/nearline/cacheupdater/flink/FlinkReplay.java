package io.nearline.cacheupdater.flink;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.StateDump;
import io.nearline.cacheupdater.core.replay.ReplayInput;
import io.nearline.cacheupdater.core.replay.ReplaySummary;
import io.nearline.cacheupdater.replay.KafkaReplay;
import io.nearline.cacheupdater.replay.ReplayCdcOptions;
import io.nearline.cacheupdater.replay.ReplayOutput;
import io.nearline.common.config.Config;
import io.nearline.common.console.Progress;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code replay cdc --engine flink}: an embedded Kafka broker in this JVM, the events onto the CDC topic,
 * the real job on a local Flink MiniCluster with a source bounded to the topic's current end, then
 * the final cache state and the dead letters written out and a summary printed.
 */
@Command(name = "replay-cdc-flink", mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater job on Flink and writes the final cache state.")
public final class FlinkReplay implements Callable<Integer> {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        long started = System.currentTimeMillis();
        FlinkMetrics.local().reset(); // counters are JVM-wide; this run counts from zero
        Path work = options.workDir();
        List<ReplayInput.Line> lines = ReplayInput.read(options.events);
        System.out.printf("replay cdc on flink: %,d lines from %s; work dir %s%n", lines.size(), options.events, work);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"))) {
            Config config = options.jobConfig(kafka.bootstrapServers(), work);
            CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
            KafkaReplay.createTopics(kafka.bootstrapServers(),
                    Map.of(settings.cdcTopic(), options.partitions, settings.deadLetterTopic(), 1));
            KafkaReplay.Sent sent = KafkaReplay.send(kafka.bootstrapServers(), settings.cdcTopic(),
                    settings.deadLetterTopic(), lines);

            // a replay fails fast instead of restarting forever
            Configuration flink = new Configuration();
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(settings.parallelism(), flink);
            CacheUpdaterJob.define(env, config, CacheUpdaterJob.kafkaSource(settings, true),
                    CacheUpdaterJob.deadLetterSink(settings));
            try (Progress progress = new Progress("events consumed", sent.events(),
                    () -> FlinkMetrics.local().count("events.received"), System.err)) {
                env.execute("nearline-cache-updater-replay");
            }

            List<String> deadLetters = KafkaReplay.deadLetters(kafka.bootstrapServers(), settings.deadLetterTopic());
            List<String> state;
            try (CacheStore store = CacheStores.open(config)) {
                state = StateDump.lines(store, sent.keys());
            }
            ReplayOutput.write(options.out, state);
            if (options.dlqOut != null) {
                ReplayOutput.write(options.dlqOut, deadLetters);
            }
            ReplaySummary.of("flink", lines.size(), deadLetters.size(), state.size(), FlinkMetrics.local(),
                    System.currentTimeMillis() - started).print(System.out);
            System.out.println("  state: " + options.out + (options.dlqOut == null ? "" : "  dead letters: " + options.dlqOut));
            return 0;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new FlinkReplay()).execute(args));
    }
}
