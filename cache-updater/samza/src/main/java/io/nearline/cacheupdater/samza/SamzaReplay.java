package io.nearline.cacheupdater.samza;

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
import org.apache.samza.config.MapConfig;
import org.apache.samza.job.ApplicationStatus;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code replay cdc --engine samza}: the broker in its own JVM, the events onto the CDC topic, the real
 * app on Samza's local application runner until every event is processed, then the final cache
 * state and the dead letters written out and a summary printed.
 */
@Command(name = "replay-cdc-samza", mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater app on Samza and writes the final cache state.")
public final class SamzaReplay implements Callable<Integer> {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        long started = System.currentTimeMillis();
        SamzaMetrics.local().reset(); // counters are JVM-wide; this run counts from zero
        Path work = options.workDir();
        Path brokerJar = options.kafkaJar != null ? options.kafkaJar : Path.of(System.getProperty("nearline.kafka.jar",
                "local-cluster/kafka/target/nearline-kafka.jar"));
        List<ReplayInput.Line> lines = ReplayInput.read(options.events);
        System.out.printf("replay cdc on samza: %,d lines from %s; work dir %s%n", lines.size(), options.events, work);
        try (ForkedKafka kafka = ForkedKafka.start(brokerJar, work.resolve("kafka"))) {
            Config config = options.jobConfig(kafka.bootstrapServers(), work);
            CacheUpdaterSettings.validateJob(config);
            CacheUpdaterSettings settings = CacheUpdaterSettings.from(config);
            KafkaReplay.createTopics(kafka.bootstrapServers(),
                    Map.of(settings.cdcTopic(), options.partitions, settings.deadLetterTopic(), 1));
            KafkaReplay.Sent sent = KafkaReplay.send(kafka.bootstrapServers(), settings.cdcTopic(),
                    settings.deadLetterTopic(), lines);

            LocalApplicationRunner runner = new LocalApplicationRunner(new CacheUpdaterApp(settings),
                    new MapConfig(CacheUpdaterApp.localRunConfig(config)));
            runner.run();
            try (Progress progress = new Progress("events consumed", sent.events(),
                    () -> SamzaMetrics.local().count("events.received"), System.err)) {
                awaitProcessed(runner, sent.events(), Duration.ofMinutes(30));
            } finally {
                runner.kill(); // flushes the dead-letter producer on the way out
                runner.waitForFinish(Duration.ofSeconds(60));
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
            ReplaySummary.of("samza", lines.size(), deadLetters.size(), state.size(), SamzaMetrics.local(),
                    System.currentTimeMillis() - started).print(System.out);
            System.out.println("  state: " + options.out + (options.dlqOut == null ? "" : "  dead letters: " + options.dlqOut));
            return 0;
        }
    }

    private static void awaitProcessed(LocalApplicationRunner runner, long expected, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (SamzaMetrics.local().count("events.received") < expected) {
            ApplicationStatus status = runner.status();
            if (status != null && (status.getStatusCode() == ApplicationStatus.StatusCode.UnsuccessfulFinish
                    || status.getStatusCode() == ApplicationStatus.StatusCode.SuccessfulFinish)) {
                throw new IllegalStateException("the Samza app stopped before processing every event: " + status);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + limit + " with "
                        + SamzaMetrics.local().count("events.received") + " of " + expected + " events processed");
            }
            Thread.sleep(50);
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new SamzaReplay()).execute(args));
    }
}
