package io.nearline.cacheupdater.samza;

import io.nearline.engine.samza.SamzaMetrics;

import io.nearline.localcluster.replay.ForkedKafka;
import io.nearline.bootstrap.BootstrapSettings;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.replay.CdcReplay;
import io.nearline.cacheupdater.replay.ReplayCdcOptions;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import org.apache.samza.config.MapConfig;
import org.apache.samza.job.ApplicationStatus;
import org.apache.samza.runtime.LocalApplicationRunner;
import io.nearline.localcluster.replay.CliErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code replay cdc --engine samza}: the broker in its own JVM, and the real app on Samza's local
 * application runner until every event is processed (Samza has no bounded Kafka input), then stopped.
 */
@Command(name = "replay-cdc", mixinStandardHelpOptions = true,
        description = "Replays change events through the cache-updater app on Samza and writes the final cache state.")
public final class SamzaReplay implements Callable<Integer>, CdcReplay.Engine {

    @Mixin
    ReplayCdcOptions options;

    @Override
    public Integer call() throws Exception {
        Path work = options.workDir();
        CdcReplay.validate(options, work);
        try (ForkedKafka kafka = ForkedKafka.start(ForkedKafka.brokerJar(options.kafkaJar), work.resolve("kafka"))) {
            return CdcReplay.run(options, work, kafka.bootstrapServers(), this);
        }
    }

    @Override
    public String name() {
        return "samza";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return SamzaMetrics.local();
    }

    @Override
    public void run(Config config, CacheUpdaterSettings settings, long events, long bootstrapRecords) throws Exception {
        String bootstrapTopic = bootstrapRecords > 0 ? BootstrapSettings.from(config).topic() : null;
        LocalApplicationRunner runner = new LocalApplicationRunner(new CacheUpdaterApp(settings, bootstrapTopic),
                new MapConfig(CacheUpdaterApp.localRunConfig(config)));
        runner.run();
        try {
            awaitProcessed(runner, "events.received", events, Duration.ofMinutes(30));
            awaitProcessed(runner, "bootstrap.records", bootstrapRecords, Duration.ofMinutes(30));
        } finally {
            runner.kill(); // flushes the dead-letter producer on the way out
            runner.waitForFinish(Duration.ofSeconds(60));
        }
    }

    private static void awaitProcessed(LocalApplicationRunner runner, String counter, long expected, Duration limit)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (SamzaMetrics.local().count(counter) < expected) {
            ApplicationStatus status = runner.status();
            if (status != null && (status.getStatusCode() == ApplicationStatus.StatusCode.UnsuccessfulFinish
                    || status.getStatusCode() == ApplicationStatus.StatusCode.SuccessfulFinish)) {
                throw new IllegalStateException("the Samza app stopped before processing every event: " + status);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + limit + " with "
                        + SamzaMetrics.local().count(counter) + " of " + expected + " " + counter);
            }
            Thread.sleep(20);
        }
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new SamzaReplay())).execute(args));
    }
}
