package io.nearline.tracking.samza;

import io.nearline.engine.samza.SamzaMetrics;

import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.replay.CliErrors;
import io.nearline.localcluster.replay.ForkedKafka;
import io.nearline.localcluster.replay.KafkaTopics;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.replay.JoinReplay;
import io.nearline.tracking.replay.ReplayJoinOptions;
import org.apache.samza.config.MapConfig;
import org.apache.samza.job.ApplicationStatus;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code replay join --engine samza}: the broker in its own JVM, and the real app on Samza's local
 * runner. Samza has no bounded Kafka input, so the replay records where each input partition ends
 * before the app starts; each task ends its partitions there, flushes everything, and reports
 * itself drained; then the app is stopped.
 */
@Command(name = "replay-join", mixinStandardHelpOptions = true,
        description = "Replays tracking events through the feed-tracking-join app on Samza and writes its outputs.")
public final class SamzaJoinReplay implements Callable<Integer>, JoinReplay.Engine {

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        JoinReplay.validate(options);
        Path work = options.workDir();
        try (ForkedKafka kafka = ForkedKafka.start(ForkedKafka.brokerJar(options.kafkaJar), work.resolve("kafka"))) {
            return JoinReplay.run(options, work, kafka.bootstrapServers(), this);
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
    public void run(Config config, JoinSettings settings, int partitions, Path work) throws Exception {
        Map<String, Map<Integer, Long>> ends = Map.of(
                settings.indexTopic(), KafkaTopics.endOffsets(settings.bootstrapServers(), settings.indexTopic()),
                settings.brokerTopic(), KafkaTopics.endOffsets(settings.bootstrapServers(), settings.brokerTopic()));
        LocalApplicationRunner runner = new LocalApplicationRunner(new JoinApp(settings, ends),
                new MapConfig(JoinApp.config(config, work.resolve("samza-state"))));
        runner.run();
        try {
            awaitDrained(runner, partitions, Duration.ofMinutes(30));
        } finally {
            runner.kill(); // flushes the producers on the way out
            runner.waitForFinish(Duration.ofSeconds(60));
        }
    }

    private static void awaitDrained(LocalApplicationRunner runner, int tasks, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (SamzaMetrics.local().count("tasks.drained") < tasks) {
            ApplicationStatus status = runner.status();
            if (status != null && (status.getStatusCode() == ApplicationStatus.StatusCode.UnsuccessfulFinish
                    || status.getStatusCode() == ApplicationStatus.StatusCode.SuccessfulFinish)) {
                throw new IllegalStateException("the Samza app stopped before every task drained its input: " + status);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + limit + " with "
                        + SamzaMetrics.local().count("tasks.drained") + " of " + tasks + " tasks drained");
            }
            Thread.sleep(20);
        }
    }

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new SamzaJoinReplay())).execute(args));
    }
}
